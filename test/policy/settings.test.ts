import { describe, expect, it } from "vitest";
import { bashRuleMatches, parseRuleString, readSettingsRules, settingsPathGlob } from "../../src/policy/settings.ts";

describe("Claude Code rule strings", () => {
  it.each([
    ["Bash", { tool: "Bash", content: undefined }],
    ["Bash(rm:*)", { tool: "Bash", content: "rm:*" }],
    ["Read(./.env)", { tool: "Read", content: "./.env" }],
    ["Bash(echo (a))", { tool: "Bash", content: "echo (a)" }],
    ["mcp__github__*", { tool: "mcp__github__*", content: undefined }],
  ])("%s parses", (raw, parsed) => {
    expect(parseRuleString(raw)).toEqual(parsed);
  });
  it.each(["Bash()", "Bash(rm", "(x)", "not a rule"])("%s is malformed", (raw) => {
    expect(parseRuleString(raw)).toBeUndefined();
  });
});

describe("Bash rule contents", () => {
  it.each<[string, string, boolean]>([
    ["rm:*", "rm -rf x", true],
    ["rm:*", "rm", true],
    ["rm:*", "rmdir x", false],
    ["npm run test:*", "npm run test:unit", false],
    ["npm run test:*", "npm run test", true],
    ["git push *", "git push origin main", true],
    ["git push *", "git push", true],
    ["ls *", "lsof", false],
    ["git * main", "git push origin main", true],
    ["npm run build", "npm run build", true],
    ["npm run build", "npm run build --watch", false],
    ["* install", "pnpm install", true],
  ])("%s vs %s → %s", (content, line, expected) => {
    expect(bashRuleMatches(content, line)).toBe(expected);
  });
});

describe("settings files", () => {
  it("reads deny and ask rules, reports what it cannot read", () => {
    const files = {
      "/p/.claude/settings.json": JSON.stringify({
        permissions: { deny: ["Bash(rm:*)", "Read(./.env)", "Bash("], ask: ["Bash(git push:*)"], allow: ["Bash(ls)"] },
      }),
      "/h/.claude/settings.json": "{not json",
    };
    const { rules, problems } = readSettingsRules(
      [
        { path: "/h/.claude/settings.json", scope: "user", baseDir: "/h" },
        { path: "/p/.claude/settings.json", scope: "project", baseDir: "/p" },
        { path: "/p/.claude/settings.local.json", scope: "local", baseDir: "/p" },
      ],
      (p) => files[p as keyof typeof files],
    );
    expect(rules.map((r) => [r.effect, r.raw, r.scope])).toEqual([
      ["deny", "Bash(rm:*)", "project"],
      ["deny", "Read(./.env)", "project"],
      ["ask", "Bash(git push:*)", "project"],
    ]);
    expect(problems).toEqual([
      "/h/.claude/settings.json: not valid JSON, its permission rules are not enforced by lanes",
      "/p/.claude/settings.json: cannot read rule `Bash(`",
    ]);
  });

  it.each([
    ["//etc/**", "//etc/**"],
    ["~/.ssh/**", "~/.ssh/**"],
    ["/src/**", "//p/src/**"],
    ["./.env", ".env"],
    [".env", ".env"],
    ["./config/secrets.json", "//work/p/config/secrets.json"],
  ])("path pattern %s → %s", (pattern, glob) => {
    expect(settingsPathGlob(pattern, { baseDir: "/p" }, "/work/p")).toBe(glob);
  });
});
