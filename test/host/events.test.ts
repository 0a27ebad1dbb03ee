/**
 * The event table: the wiring, the build's bundle list and the events hook read it.
 */
import { describe, expect, it } from "vitest";
import { BUNDLES, bundleSource, handledBy, HOOK_EVENTS, HOT_BUNDLES } from "../../src/host/events.ts";
import { DIST_FILES, hookWiring } from "../../src/install/wiring.ts";
import { existsSync } from "node:fs";
import { join } from "node:path";

const ROOT = join(import.meta.dirname, "..", "..");

describe("event table", () => {
  it("lists each event once per bundle", () => {
    const pairs = HOOK_EVENTS.map((row) => `${row.event} ${row.bundle}`);
    expect(new Set(pairs).size).toBe(pairs.length);
  });

  it("has a source file for every bundle", () => {
    for (const bundle of Object.keys(BUNDLES) as (keyof typeof BUNDLES)[])
      expect(existsSync(join(ROOT, bundleSource(bundle))), bundle).toBe(true);
  });

  it("names the hot bundles once", () => {
    expect(HOT_BUNDLES).toEqual(["pre-tool-use", "post-tool-use"]);
    expect(DIST_FILES).toEqual(
      expect.arrayContaining(["pre-tool-use.impl.cjs", "post-tool-use.impl.cjs", "pre-tool-use.cjs", "events.cjs"]),
    );
  });

  it("wires every row, blocking only the enforcing ones", () => {
    const wiring = hookWiring((entry) => entry);
    expect(Object.keys(wiring)).toEqual([...new Set(HOOK_EVENTS.map((row) => row.event))]);
    expect(wiring["PreToolUse"]?.[0]?.hooks[0]).toEqual({
      type: "command",
      command: "pre-tool-use.cjs",
      timeout: 10,
      onFailure: "block",
    });
    expect(wiring["SubagentStop"]?.[0]?.hooks[0]).toEqual({ type: "command", command: "events.cjs", timeout: 10 });
  });

  it.each<[string, "events" | "pre-tool-use", boolean]>([
    ["SubagentStart", "events", true],
    ["PreCompact", "events", true],
    ["PreToolUse", "events", false],
    ["PreToolUse", "pre-tool-use", true],
    ["Notification", "events", false],
  ])("%s is handled by %s → %s", (event, bundle, handled) => {
    expect(handledBy(event, bundle)).toBe(handled);
  });
});
