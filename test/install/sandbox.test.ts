import { describe, expect, it } from "vitest";
import {
  GUARD_ZONE_WRITES,
  mergeSandbox,
  readSandboxRecord,
  removeSandbox,
  sandboxPath,
  wantedSandbox,
  type SandboxWanted,
} from "../../src/install/sandbox.ts";
import { loadPolicy } from "../../src/config/load.ts";
import { mkdtempSync, mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

describe("sandboxPath: a policy glob as the sandbox names it", () => {
  const rows: [
    anchor: "home" | "absolute" | "project" | "basename-anywhere",
    written: string,
    expected: string | undefined,
  ][] = [
    ["home", "~/.ssh/", "~/.ssh"],
    ["home", "~/.aws/credentials", "~/.aws/credentials"],
    ["home", "~/.npmrc", undefined], // npm reads it on every run: the guard alone holds it
    ["absolute", "//etc/shadow", "/etc/shadow"],
    ["absolute", "//proc/*/environ", undefined], // one per process: not a path list the sandbox can hold
    ["project", ".claude/lanes/state/overrides.json", "./.claude/lanes/state/overrides.json"],
    ["basename-anywhere", ".env", "**/.env"],
    ["basename-anywhere", "*.pem", "**/*.pem"],
  ];
  it.each(rows)("%s `%s` -> %s", (anchor, written, expected) => {
    expect(sandboxPath({ anchor }, written)).toBe(expected);
  });
});

describe("wantedSandbox from the built-in policy", () => {
  const project = mkdtempSync(join(tmpdir(), "lanes-sbx-"));
  const home = mkdtempSync(join(tmpdir(), "lanes-sbx-home-"));
  const loaded = loadPolicy({ projectDir: project, home, lanesVersion: "0.0.0", skipUser: true });
  if (!loaded.ok) throw new Error("the built-in policy does not compile");
  const wanted = wantedSandbox(loaded.policy, `${home}/.claude/lanes/private/abc`, home);

  it("denies writes to the guard zone and the configuration", () => {
    expect(wanted.enabled).toBe(true);
    expect(wanted.denyWrite).toEqual(GUARD_ZONE_WRITES);
    expect(wanted.denyWrite).toContain("./.claude/lanes");
    expect(wanted.denyWrite).toContain("./.claude/settings.json");
  });

  it("denies reads of the deny-read secrets, keeps their exceptions readable, and the private store", () => {
    for (const p of [
      "**/.env",
      "**/.env.*",
      "~/.ssh",
      "~/.aws/credentials",
      "/etc/shadow",
      "~/.claude/lanes/private/abc",
    ])
      expect(wanted.denyRead).toContain(p);
    for (const p of ["**/.env.example", "~/.ssh/known_hosts", "~/.ssh/*.pub"]) expect(wanted.allowRead).toContain(p);
    expect(wanted.denyRead).not.toContain("~/.npmrc");
    expect(wanted.guardOnly).toContain("~/.npmrc");
    // an `ask` rule (terraform state) is the person's call, not the kernel's
    expect(wanted.denyRead).not.toContain("**/*.tfstate");
  });

  it("is off when the policy says so", () => {
    mkdirSync(join(project, ".claude"), { recursive: true });
    writeFileSync(join(project, ".claude", "lanes.yaml"), "version: 1\noptions:\n  sandbox: off\n");
    const off = loadPolicy({ projectDir: project, home, lanesVersion: "0.0.0", skipUser: true });
    if (!off.ok) throw new Error("does not compile");
    expect(wantedSandbox(off.policy, undefined, home).enabled).toBe(false);
  });
});

const WANTED: SandboxWanted = {
  enabled: true,
  denyWrite: ["./.claude/lanes", "./.claude/settings.json"],
  denyRead: ["**/.env", "~/.ssh"],
  allowRead: ["**/.env.example"],
  guardOnly: [],
};

describe("mergeSandbox and removeSandbox: text edits that keep the user's settings", () => {
  const userText = `{
  "model": "opus",
  "sandbox": {
    "enabled": false,
    "filesystem": {
      "denyRead": ["~/.ssh", "~/private"]
    }
  }
}
`;
  const rows: { name: string; before: string; enabled: unknown; denyRead: string[]; kept: string[] }[] = [
    { name: "no settings yet", before: "{}\n", enabled: true, denyRead: ["**/.env", "~/.ssh"], kept: [] },
    {
      name: "the user's own sandbox section",
      before: userText,
      enabled: false,
      denyRead: ["~/.ssh", "~/private", "**/.env"],
      kept: ["kept your `sandbox.enabled: false` (lanes writes true)"],
    },
  ];
  it.each(rows)("$name", ({ before, enabled, denyRead, kept }) => {
    const merged = mergeSandbox(before, WANTED, undefined);
    const sandbox = (JSON.parse(merged.settings) as { sandbox: Record<string, any> }).sandbox;
    expect(sandbox["enabled"]).toBe(enabled);
    expect(sandbox["filesystem"].denyRead).toEqual(denyRead);
    expect(sandbox["filesystem"].denyWrite).toEqual(WANTED.denyWrite);
    expect(merged.kept).toEqual(kept);
    // a second run changes nothing
    const again = mergeSandbox(merged.settings, WANTED, merged.record);
    expect(again.settings).toBe(merged.settings);
    expect(again.record).toBe(merged.record);
    // an uninstall gives the file back byte for byte
    expect(removeSandbox(merged.settings, readSandboxRecord(merged.record))).toBe(before);
    // the policy turning the sandbox off takes out what lanes added, and only that
    const off = mergeSandbox(merged.settings, { ...WANTED, enabled: false }, merged.record);
    expect(off.settings).toBe(before);
    expect(off.record).toBeUndefined();
  });

  it("never removes an entry the user had before lanes", () => {
    const merged = mergeSandbox(userText, WANTED, undefined);
    expect(readSandboxRecord(merged.record).added.denyRead).toEqual(["**/.env"]);
  });

  it("leaves a `sandbox` that is not an object alone, and says so", () => {
    const merged = mergeSandbox('{"sandbox": true}\n', WANTED, undefined);
    expect(merged.settings).toBe('{"sandbox": true}\n');
    expect(merged.kept).toEqual(["`sandbox` is not an object: lanes left it alone"]);
  });
});
