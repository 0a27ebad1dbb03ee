import { describe, expect, it } from "vitest";
import { relativeWithin, shownPath } from "../../src/host/paths.ts";

describe("the one project-relative path helper", () => {
  it.each<[string, string, boolean, string | undefined]>([
    ["/work/app/src/a.ts", "/work/app", false, "src/a.ts"],
    ["/work/app", "/work/app", false, "."],
    ["/work/application/a.ts", "/work/app", false, undefined],
    ["/etc/passwd", "/work/app", false, undefined],
    ["/Work/App/a.ts", "/work/app", true, "a.ts"],
    ["/Work/App/a.ts", "/work/app", false, undefined],
    ["/etc/passwd", "/", false, "etc/passwd"],
  ])("%s within %s (case-insensitive %s) → %s", (abs, dir, ci, rel) => {
    expect(relativeWithin(abs, dir, ci)).toBe(rel);
  });

  it.each<[string, string, string]>([
    ["/work/app/src/a.ts", "/work/app", "src/a.ts"],
    ["/work/app", "/work/app", "/work/app"],
    ["/tmp/x", "/work/app", "/tmp/x"],
  ])("shows %s from %s as %s", (abs, dir, shown) => {
    expect(shownPath(abs, dir)).toBe(shown);
  });
});
