/**
 * The task constraint block: read only between `<constraints>` lines, forgiving of phrasing inside.
 */
import { describe, expect, it } from "vitest";
import { CONSTRAINT_BLOCK_EXAMPLE, parseTaskBlock, type TaskBlock } from "../../src/policy/task-block.ts";

const block = (...lines: string[]) =>
  `Implement the users endpoint.\n\n<constraints>\n${lines.join("\n")}\n</constraints>\n\nThanks.`;
const none: TaskBlock = {
  readOnly: false,
  onlyPaths: [],
  forbiddenPaths: [],
  fixtures: false,
  commands: [],
  ignored: [],
};

describe("parseTaskBlock", () => {
  it.each<[string, string, Partial<TaskBlock>]>([
    ["read-only", "- read-only", { readOnly: true }],
    ["Read only.", "Read only.", { readOnly: true }],
    ["this task is read-only", "* This task is read-only", { readOnly: true }],
    ["do not modify any files", "- Do not modify any files.", { readOnly: true }],
    ["make no changes", "1. Make no changes", { readOnly: true }],
    [
      "do not modify <paths>",
      "- do not modify src/server/auth/** or src/server/billing/",
      { forbiddenPaths: ["src/server/auth/**", "src/server/billing/"] },
    ],
    ["don't touch <path>", "- Don't touch `docs/api/openapi.yaml`", { forbiddenPaths: ["docs/api/openapi.yaml"] }],
    ["never edit files in <dir>", "- Never edit files in migrations/", { forbiddenPaths: ["migrations/"] }],
    ["you must not change <name>", "- You must not change package.json", { forbiddenPaths: ["package.json"] }],
    [
      "only modify <paths>",
      "- only modify src/server/users/** and test/users/**",
      { onlyPaths: ["src/server/users/**", "test/users/**"] },
    ],
    ["you may only edit <path>", "- You may only edit `src/server/users.ts`.", { onlyPaths: ["src/server/users.ts"] }],
    ["only work in <dir>", "- Only work in src/jobs/", { onlyPaths: ["src/jobs/"] }],
    ["do not run <command>", "- do not run git push", { commands: [["git", "push"]] }],
    [
      "do not run <commands>",
      "- Do not run `npm publish` or `git push --force`",
      {
        commands: [
          ["npm", "publish"],
          ["git", "push", "--force"],
        ],
      },
    ],
    [
      "never execute <a>, <b>",
      "- never execute prisma migrate deploy, npm publish",
      {
        commands: [
          ["prisma", "migrate", "deploy"],
          ["npm", "publish"],
        ],
      },
    ],
    ["fixtures", "- Do not change test fixtures or recorded outputs.", { fixtures: true }],
    ["snapshots", "- don't update snapshots", { fixtures: true }],
    ["you are read-only", "- You are read-only: report findings only", { readOnly: true }],
    [
      "**Do not** touch <path> (markdown emphasis)",
      "- **Do not** touch src/server/auth/**",
      { forbiddenPaths: ["src/server/auth/**"] },
    ],
    [
      "no changes to <path>",
      "- No changes to package.json or pnpm-lock.yaml",
      { forbiddenPaths: ["package.json", "pnpm-lock.yaml"] },
    ],
    ["leave <path> untouched", "- Leave src/server/auth/ untouched", { forbiddenPaths: ["src/server/auth/"] }],
    ["stay within <path>", "- Stay within src/server/users/", { onlyPaths: ["src/server/users/"] }],
    [
      "limit your changes to <path>",
      "- Limit your changes to src/server/users/** and test/users/**",
      { onlyPaths: ["src/server/users/**", "test/users/**"] },
    ],
    ["do not push", "- Do not push", { commands: [["git", "push"]] }],
    ["never commit", "- never commit", { commands: [["git", "commit"]] }],
    ["do not delete files is not read-only", "- do not delete files", { ignored: ["- do not delete files"] }],
    ["do not touch anything", "- Don't touch anything", { readOnly: true }],
    [
      "prose inside the block is kept, not guessed",
      "- be careful with the auth code",
      { ignored: ["- be careful with the auth code"] },
    ],
    [
      "a verb without paths is kept, not guessed",
      "- only modify what you need",
      { ignored: ["- only modify what you need"] },
    ],
  ])("%s", (_name, line, expected) => {
    expect(parseTaskBlock(block(line))).toEqual({ ...none, ...expected });
  });

  it("reads nothing outside the block: free prose never becomes a constraint", () => {
    expect(parseTaskBlock("Please do not modify src/server/auth/** and keep it read-only.")).toBeUndefined();
  });

  it("reads a block written on one line, and ignores code fences inside it", () => {
    expect(parseTaskBlock("Fix it. <constraints>do not run git push</constraints>")).toEqual({
      ...none,
      commands: [["git", "push"]],
    });
    expect(parseTaskBlock("<Constraints>\n```\n- read-only\n```\n</Constraints>")).toEqual({ ...none, readOnly: true });
  });

  it("adds up every block and every line", () => {
    const prompt = `${block("- only modify src/a/**")}\n${block("- do not run git push", "- read-only")}`;
    expect(parseTaskBlock(prompt)).toEqual({
      ...none,
      onlyPaths: ["src/a/**"],
      commands: [["git", "push"]],
      readOnly: true,
    });
  });

  it("an unclosed block is not read", () => {
    expect(parseTaskBlock("<constraints>\n- read-only\n")).toBeUndefined();
  });

  it("parses the example the orchestrator protocol shows", () => {
    expect(parseTaskBlock(CONSTRAINT_BLOCK_EXAMPLE)).toEqual({
      ...none,
      onlyPaths: ["src/server/users/**"],
      forbiddenPaths: ["src/server/auth/**"],
      commands: [["git", "push"]],
      fixtures: true,
    });
  });
});
