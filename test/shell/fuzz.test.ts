import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { argView, fileEffects, type ShellAnalysis } from "../../src/shell/index.ts";
import { analyze } from "./helpers.ts";

const BUDGET_CODES = new Set(["node-budget", "time-budget", "stack-overflow", "depth-limit"]);

/** What must hold for any input: no throw, consistent indices, and a budget stop is reported. */
function checkInvariants(a: ShellAnalysis, maxNodes: number): void {
  a.commands.forEach((c, i) => {
    expect(c.index).toBe(i);
    expect(c.args).toEqual(c.argv.slice(1));
    if (c.launchedBy !== undefined) expect(c.launchedBy).toBeLessThan(a.commands.length);
  });
  for (const p of a.pipes) {
    expect(p.from).toBeLessThan(a.commands.length);
    expect(p.to).toBeLessThan(a.commands.length);
  }
  for (const c of a.code) for (const i of [c.command, ...c.producers]) expect(i).toBeLessThan(a.commands.length);
  expect(a.commands.length).toBeLessThanOrEqual(maxNodes);
  if (a.budgetExceeded) expect(a.unrepresentable.some((u) => BUDGET_CODES.has(u.code))).toBe(true);
  // the derived views never throw either
  for (const c of a.commands) argView(c);
  fileEffects(a);
}

/** Shell-flavoured fragments, so random inputs reach deep into the grammar. */
const fragment = fc.constantFrom(
  "rm",
  "-rf",
  "/",
  "~",
  "$HOME",
  "$X",
  "${Y:-$(a)}",
  "*",
  "{a,b}",
  "{1..3}",
  "'",
  '"',
  "`",
  "\\",
  "$(",
  "$((",
  "<(",
  ">(",
  "(",
  ")",
  "{",
  "}",
  ";",
  "&&",
  "||",
  "|",
  "&",
  ">",
  ">>",
  "<",
  "<<EOF\n",
  "\nEOF\n",
  "<<<",
  "2>&1",
  "if",
  "then",
  "else",
  "fi",
  "for",
  "in",
  "do",
  "done",
  "while",
  "case",
  "esac",
  ";;",
  "f()",
  "function",
  "sudo",
  "env -S",
  "xargs",
  "find . -exec",
  "{}",
  "\\;",
  "+",
  "bash -c",
  "sh -c",
  "eval",
  "python3 -c",
  "node -e",
  "perl -e",
  "ruby -e",
  "php -r",
  "'import os; os.system(\"rm -rf /\")'",
  "cd",
  "pushd",
  "popd",
  "time",
  "!",
  "coproc",
  "[[",
  "]]",
  "((",
  "))",
  "=",
  "A=1",
  " ",
  "\n",
  "#",
  "$'\\x41'",
  "@(a|b)",
  "--",
  "-c",
);

describe("the analysis is total", () => {
  it("never throws on arbitrary text", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (source) => {
        checkInvariants(analyze(source), 20_000);
      }),
      { numRuns: 400 },
    );
  });

  it("never throws on arbitrary unicode", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 200 }), (source) => {
        checkInvariants(analyze(source), 20_000);
      }),
      { numRuns: 200 },
    );
  });

  it("never throws on shell-flavoured fragments", () => {
    fc.assert(
      fc.property(
        fc.array(fragment, { maxLength: 60 }),
        fc.array(fc.constantFrom(" ", ""), { minLength: 60, maxLength: 60 }),
        (parts, gaps) => {
          const source = parts.map((p, i) => p + (gaps[i] ?? "")).join("");
          checkInvariants(analyze(source), 20_000);
        },
      ),
      { numRuns: 600 },
    );
  });

  it("respects a small node budget on any input", () => {
    fc.assert(
      fc.property(fc.array(fragment, { maxLength: 80 }), fc.integer({ min: 1, max: 200 }), (parts, maxNodes) => {
        const a = analyze(parts.join(" "), { maxNodes });
        checkInvariants(a, maxNodes);
      }),
      { numRuns: 300 },
    );
  });

  it("stops or completes on deep nesting", () => {
    const openers = [
      "(",
      "$(",
      "`",
      "{ ",
      "$((",
      "<(",
      '"$(',
      "bash -c '",
      "eval ",
      "if true; then ",
      "f() { ",
      "$'",
      "${x:-",
    ];
    fc.assert(
      fc.property(
        fc.constantFrom(...openers),
        fc.integer({ min: 1, max: 5000 }),
        fc.boolean(),
        (opener, depth, closed) => {
          const source = opener.repeat(depth) + "rm -rf /" + (closed ? ")".repeat(depth) : "");
          checkInvariants(analyze(source), 20_000);
        },
      ),
      { numRuns: 60 },
    );
  });

  it.each([
    ["(".repeat(5000)],
    ["$(".repeat(5000)],
    ["`".repeat(5000)],
    ["{ ".repeat(5000)],
    ["a | ".repeat(20_000) + "b"],
    ["echo " + "$(echo ".repeat(300) + "x" + ")".repeat(300)],
    ["bash -c ".repeat(50) + "x"],
    ["eval ".repeat(50) + "x"],
    ["x".repeat(100_000)],
    ["python3 -c '" + 'os.system("ls");'.repeat(5000) + "'"],
  ])("a pathological input (%#) stops at a budget or completes", (source) => {
    checkInvariants(analyze(source), 20_000);
  });
});

describe("data stays data", () => {
  it("a single-quoted echo argument is one plain word", () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 100 }).filter((s) => !s.includes("'")),
        (text) => {
          const a = analyze(`echo '${text}'`);
          expect(a.commands.map((c) => c.program)).toEqual(["echo"]);
          expect(a.commands[0]?.args.map((w) => w.value)).toEqual([text]);
          expect(a.code).toEqual([]);
          expect(a.unrepresentable).toEqual([]);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("simple words resolve to themselves", () => {
    const word = fc.stringMatching(/^[A-Za-z0-9_./-]{1,12}$/).filter((w) => !w.startsWith("-") && !w.startsWith("~"));
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 6 }), (words) => {
        const a = analyze(`ls ${words.join(" ")}`);
        expect(a.commands[0]?.args.map((w) => w.value)).toEqual(words);
      }),
      { numRuns: 300 },
    );
  });
});
