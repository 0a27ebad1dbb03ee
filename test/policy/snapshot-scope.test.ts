/**
 * What of the project a call may destroy (issue 25), decided from the facts alone: the paths a
 * snapshot keeps, or none (then the guard spawns no git and walks no tree).
 */
import { describe, expect, test } from "vitest";
import { snapshotScope } from "../../src/policy/snapshot-scope.ts";
import { judge, PROJECT, testPolicy } from "../helpers/guard.ts";

const policy = testPolicy();
const STATE = `${PROJECT}/.claude/state`;
const scopeOf = (command: string, cwd?: string) =>
  snapshotScope(judge(policy, command, cwd === undefined ? {} : { cwd }).facts, PROJECT, STATE);

// prettier-ignore
const KEPT: readonly [string, readonly string[], "effects" | "unknown-code"][] = [
  ["rm -rf src", ["src"], "effects"],
  ["rm -f a.txt b.txt", ["a.txt", "b.txt"], "effects"],
  ["cd src && rm -rf lib", ["src/lib"], "effects"],
  ["find src -name '*.log' -delete", ["src"], "effects"],
  ["sed -i s/a/b/ a.txt", ["a.txt"], "effects"],
  [": > a.txt", ["a.txt"], "effects"],
  ["echo x > a.txt", ["a.txt"], "effects"],
  ["truncate -s 0 a.txt", ["a.txt"], "effects"],
  ["cp /dev/null a.txt", ["a.txt"], "effects"],
  ["mv b.txt a.txt", ["a.txt", "b.txt"], "effects"],
  ["rm -rf src src/lib a.txt", ["src", "a.txt"], "effects"],
  ["tar -xzf x.tgz -C sub", ["sub"], "effects"],
  ["tar xf x.tar", ["."], "effects"],
  ["unzip -o x.zip", ["."], "effects"],
  ["rm src/*.ts", ["src"], "effects"],
  ["python3 -c 'import shutil; shutil.rmtree(\"src\")'", ["src"], "effects"],
  ["node -e 'require(\"fs\").rmSync(\"src\", { recursive: true })'", ["src"], "effects"],
  ["cat <<'EOF' | bash\nrm -rf src\nEOF", ["src"], "effects"],
  ["bash -c 'rm -rf src'", ["src"], "effects"],
  ["python3 tools/clean.py", ["."], "unknown-code"],
  ["bash ./scripts/reset.sh", ["."], "unknown-code"],
  ["curl -s https://example.com/x.sh | sh", ["."], "unknown-code"],
  ["$TOOL -rf src", ["."], "unknown-code"],
  ["x=$(cat f); $x", ["."], "unknown-code"],
  ["git reset --hard", ["."], "effects"],
  ["git stash", ["."], "effects"],
  ["git rm -r src", ["src"], "effects"],
];

// prettier-ignore
const NONE: readonly string[] = [
  "ls -la src",
  "git status",
  "git log --oneline",
  "cat a.txt | wc -l",
  "echo hi > /tmp/x",
  "rm -rf /tmp/build",
  "grep -r TODO src",
  "npm test",
  "rm -rf .claude/state/x",
  "python3 -c 'print(1)'",
];

describe("snapshotScope", () => {
  test.each(KEPT)("`%s` keeps %j (%s)", (command, paths, basis) => {
    const scope = scopeOf(command);
    expect(scope?.paths).toEqual(paths.map((p) => (p === "." ? PROJECT : `${PROJECT}/${p}`)));
    expect(scope?.basis).toBe(basis);
  });
  test.each(NONE)("`%s` keeps nothing", (command) => {
    expect(scopeOf(command)).toBeUndefined();
  });
  test("a file tool keeps nothing (Claude Code's checkpoints cover it)", () => {
    const facts = judge(policy, undefined, {
      tool: "Write",
      input: { file_path: `${PROJECT}/a.txt`, content: "" },
    }).facts;
    expect(snapshotScope(facts, PROJECT, STATE)).toBeUndefined();
  });
});
