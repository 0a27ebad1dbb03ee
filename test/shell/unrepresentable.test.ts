import { describe, expect, it } from "vitest";
import { UNREPRESENTABLE_CODES, UNREPRESENTABLE_MESSAGES, type ShellAnalysis } from "../../src/shell/index.ts";
import { analyze } from "./helpers.ts";

describe("what the analysis cannot represent is reported, never skipped", () => {
  // [source, codes, budgetExceeded]
  const cases: [string, string[], boolean][] = [
    ["$CMD -rf /", ["dynamic-command-name"], false],
    ['"${arr[@]}"', ["dynamic-command-name"], false],
    ["$(which $TOOL) -rf /", ["dynamic-command-name"], false],
    ["$(tool --path) -rf /", ["dynamic-command-name"], false],
    ["sudo $CMD x", ["dynamic-command-name"], false],
    ["/bin/r? -rf /", ["dynamic-command-name"], false],
    ["xargs $TOOL", ["dynamic-command-name"], false],
    ["echo 'unterminated", ["parse-error"], false],
    ['echo "unterminated', ["parse-error"], false],
    ["if true; then echo", ["parse-error"], false],
    ["echo $(", ["parse-error"], false],
    ['bash -c "$X"', ["dynamic-code"], false],
    ["eval $X", ["dynamic-code"], false],
    ['python3 -c "$CODE"', ["dynamic-code"], false],
    ["node -e \"require('child_process').execSync(cmd)\"", ["dynamic-code"], false],
    ['bash -c \'eval "$1"\' _ "$X"', ["dynamic-code"], false],
    ["bash -c 'echo \"unterminated'", ["parse-error"], false],
    ['python3 -c "print(\'x)"', ["interpreter-code"], false],
    ["node -e 'x = `unterminated'", ["interpreter-code"], false],
    ["env -S 'a | b'", ["env-split-string"], false],
    ["rm {1..100}", ["brace-expansion-limit"], false],
    ["eval eval eval eval eval eval rm x", ["depth-limit"], true],
  ];

  it.each(cases)("`%s` → %j", (source, codes, budget) => {
    const a = analyze(source);
    expect(a.unrepresentable.map((u) => u.code)).toEqual(codes);
    expect(a.budgetExceeded).toBe(budget);
    for (const u of a.unrepresentable) {
      expect(u.message.startsWith(UNREPRESENTABLE_MESSAGES[u.code as keyof typeof UNREPRESENTABLE_MESSAGES])).toBe(
        true,
      );
      expect(u.text.length).toBeGreaterThan(0);
    }
  });

  it("a dynamic command still appears, with an unknown program", () => {
    const a = analyze("$CMD -rf /");
    expect(a.commands).toHaveLength(1);
    expect(a.commands[0]?.program).toBeUndefined();
    expect(a.commands[0]?.args.map((w) => w.value)).toEqual(["-rf", "/"]);
  });

  it("a parse error keeps what could be parsed", () => {
    const a = analyze("rm -rf / && echo 'oops");
    expect(a.commands.map((c) => c.program)).toEqual(["rm", "echo"]);
  });

  it("stops at the node budget", () => {
    const a = analyze("a; ".repeat(500), { maxNodes: 100 });
    expect(a.budgetExceeded).toBe(true);
    expect(a.unrepresentable.map((u) => u.code)).toEqual(["node-budget"]);
    expect(a.commands.length).toBeLessThan(100);
  });

  it("is bounded by a count, never the clock: a zero time budget changes nothing", () => {
    const source = "a | ".repeat(2000) + "b";
    const timed = analyze(source, { budgetMs: 0 });
    expect(timed).toEqual(analyze(source));
    expect(timed.budgetExceeded).toBe(false);
    expect(analyze(source, { maxNodes: 500 }).unrepresentable.map((u) => u.code)).toEqual(["node-budget"]);
  });

  it("the depth limit is configurable", () => {
    expect(analyze("bash -c 'bash -c \"rm x\"'", { maxDepth: 1 }).unrepresentable.map((u) => u.code)).toEqual([
      "depth-limit",
    ]);
    expect(analyze("bash -c 'bash -c \"rm x\"'", { maxDepth: 2 }).unrepresentable).toEqual([]);
  });

  it("a stack overflow becomes budgetExceeded instead of an exception", () => {
    const source = "echo " + "$(echo ".repeat(100) + "x" + ")".repeat(100);
    let frames = 0;
    const dive = (n: number, fn: () => void): void => {
      frames++;
      if (n <= 0) fn();
      else dive(n - 1, fn);
    };
    try {
      dive(1e9, () => undefined);
    } catch {
      // `frames` is now about how many `dive` frames the stack holds
    }
    const max = frames;
    const outcomes: string[] = [];
    // call the analysis with more and more stack left: wherever a trivial analysis runs, a deep
    // one returns (complete, or with budgetExceeded) instead of throwing
    for (let headroom = 10; headroom < max && !outcomes.includes("complete"); headroom += 10) {
      let trivial: ShellAnalysis | undefined;
      let deep: ShellAnalysis | undefined;
      try {
        dive(max - headroom, () => {
          trivial = analyze("true");
          deep = analyze(source, { budgetMs: 10_000 });
        });
      } catch (error) {
        if (!(error instanceof RangeError) || trivial !== undefined) throw error;
      }
      if (deep !== undefined)
        outcomes.push(deep.budgetExceeded ? deep.unrepresentable.map((u) => u.code).join(",") : "complete");
    }
    expect(outcomes).toContain("stack-overflow");
    expect(outcomes.at(-1)).toBe("complete");
  });

  it("documents every code it uses", () => {
    expect(Object.keys(UNREPRESENTABLE_MESSAGES).sort()).toEqual([...UNREPRESENTABLE_CODES].sort());
  });
});
