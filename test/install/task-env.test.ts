/** The task-tools switch at install: added unless the user set it, recorded, and removable by the record alone. */
import { describe, expect, it } from "vitest";
import { disableTaskTools, enableTaskTools } from "../../src/install/task-env.ts";

const json = (v: unknown) => `${JSON.stringify(v, null, 2)}\n`;

describe("enableTaskTools", () => {
  it.each<[string, Record<string, unknown>, string | undefined, Record<string, unknown>, Record<string, string>]>([
    [
      "fresh settings",
      { hooks: {} },
      undefined,
      { hooks: {}, env: { CLAUDE_CODE_ENABLE_TODO_TOOLS: "1" } },
      { CLAUDE_CODE_ENABLE_TODO_TOOLS: "1" },
    ],
    [
      "other variables are kept",
      { env: { FOO: "bar" } },
      undefined,
      { env: { FOO: "bar", CLAUDE_CODE_ENABLE_TODO_TOOLS: "1" } },
      { CLAUDE_CODE_ENABLE_TODO_TOOLS: "1" },
    ],
    [
      "the user's own value wins and is not recorded",
      { env: { CLAUDE_CODE_ENABLE_TODO_TOOLS: "0" } },
      undefined,
      { env: { CLAUDE_CODE_ENABLE_TODO_TOOLS: "0" } },
      {},
    ],
    [
      "a second install keeps lanes' record",
      { env: { CLAUDE_CODE_ENABLE_TODO_TOOLS: "1" } },
      json({ env: { CLAUDE_CODE_ENABLE_TODO_TOOLS: "1" } }),
      { env: { CLAUDE_CODE_ENABLE_TODO_TOOLS: "1" } },
      { CLAUDE_CODE_ENABLE_TODO_TOOLS: "1" },
    ],
    [
      "a value the user set to the same string before lanes is not lanes'",
      { env: { CLAUDE_CODE_ENABLE_TODO_TOOLS: "1" } },
      undefined,
      { env: { CLAUDE_CODE_ENABLE_TODO_TOOLS: "1" } },
      {},
    ],
  ])("%s", (_name, settings, record, expected, recorded) => {
    const result = enableTaskTools(json(settings), record);
    expect(JSON.parse(result.settings)).toEqual(expected);
    expect(JSON.parse(result.record)).toEqual({ env: recorded });
  });
});

describe("disableTaskTools", () => {
  it.each<[string, Record<string, unknown>, string | undefined, Record<string, unknown>]>([
    [
      "removes what lanes set, and an empty env",
      { env: { CLAUDE_CODE_ENABLE_TODO_TOOLS: "1" }, hooks: {} },
      json({ env: { CLAUDE_CODE_ENABLE_TODO_TOOLS: "1" } }),
      { hooks: {} },
    ],
    [
      "keeps the user's variables",
      { env: { CLAUDE_CODE_ENABLE_TODO_TOOLS: "1", FOO: "bar" } },
      json({ env: { CLAUDE_CODE_ENABLE_TODO_TOOLS: "1" } }),
      { env: { FOO: "bar" } },
    ],
    [
      "keeps a value the user changed since",
      { env: { CLAUDE_CODE_ENABLE_TODO_TOOLS: "0" } },
      json({ env: { CLAUDE_CODE_ENABLE_TODO_TOOLS: "1" } }),
      { env: { CLAUDE_CODE_ENABLE_TODO_TOOLS: "0" } },
    ],
    [
      "without a record removes nothing",
      { env: { CLAUDE_CODE_ENABLE_TODO_TOOLS: "1" } },
      undefined,
      { env: { CLAUDE_CODE_ENABLE_TODO_TOOLS: "1" } },
    ],
  ])("%s", (_name, settings, record, expected) => {
    expect(JSON.parse(disableTaskTools(json(settings), record))).toEqual(expected);
  });
});
