/**
 * Code on disk as the shell analysis reads it (src/shell/handlers/on-disk.ts): where each command
 * of a file comes from, what was read, and the bounds (size, the view's operations and bytes,
 * nesting) past which a file is unknown code.
 */
import { describe, expect, it } from "vitest";
import { fakeDisk, type FakeFile } from "../helpers/disk.ts";
import { analyze, CWD, HOME } from "./helpers.ts";

const disk = (files: Record<string, FakeFile>, bounds?: { maxOperations: number; maxBytes: number }) =>
  fakeDisk(
    { files: Object.fromEntries(Object.entries(files).map(([p, f]) => [p.startsWith("/") ? p : `${CWD}/${p}`, f])) },
    bounds,
  );

const codes = (a: ReturnType<typeof analyze>) => a.unrepresentable.map((u) => u.code);

describe("commands read from a file", () => {
  it("carry the file and line they are written on, functions the file that defines them", () => {
    const a = analyze("bash run.sh", {
      disk: disk({ "run.sh": ". ./lib.sh\necho start\n\nwipe\n", "lib.sh": "wipe() {\n  rm -rf /tmp/x\n}\n" }),
    });
    expect(a.commands.map((c) => [c.program, c.origin])).toEqual([
      ["bash", undefined],
      [".", { file: "run.sh", line: 1 }],
      ["echo", { file: "run.sh", line: 2 }],
      ["wipe", { file: "run.sh", line: 4 }],
      ["rm", { file: "lib.sh", line: 2 }],
    ]);
    expect(a.code.map((c) => [c.interpreter, c.source, c.path])).toEqual([
      ["bash", "disk", "run.sh"],
      [".", "disk", "lib.sh"],
    ]);
    expect(a.reads).toEqual([
      { path: "run.sh", as: "bash script", outcome: "read" },
      { path: "lib.sh", as: ". script", outcome: "read" },
    ]);
  });

  it("shows paths under the home with `~/` and others as they are", () => {
    const a = analyze("bash ~/bin/x.sh && bash /opt/y.sh", {
      disk: disk({ [`${HOME}/bin/x.sh`]: "echo x\n", "/opt/y.sh": "echo y\n" }),
    });
    expect(a.reads.map((r) => r.path)).toEqual(["~/bin/x.sh", "/opt/y.sh"]);
  });

  it("reads nothing without a disk: the script is file code, as before", () => {
    const a = analyze("bash run.sh");
    expect(a.code.map((c) => c.source)).toEqual(["file"]);
    expect(a.reads).toEqual([]);
    expect(codes(a)).toEqual([]);
  });

  it("runs nothing from a missing file, a compiled program, or a program without the x bit", () => {
    const files = { tool: { content: "\u007fELF\u0000\u0000", mode: 0o755 }, "plain.sh": "rm -rf /\n" };
    const a = analyze("bash gone.sh; ./tool; ./plain.sh", { disk: disk(files) });
    expect(a.reads.map((r) => [r.path, r.outcome, r.detail])).toEqual([
      ["gone.sh", "missing", undefined],
      ["tool", "skipped", "a compiled program"],
      ["plain.sh", "skipped", "not executable: the shell does not run it"],
    ]);
    expect(a.commands.map((c) => c.program)).toEqual(["bash", "tool", "plain.sh"]);
    expect(codes(a)).toEqual([]);
  });
});

describe("bounds: a file that cannot be read is unknown code", () => {
  it("a file larger than lanes reads", () => {
    const a = analyze("bash big.sh", { disk: disk({ "big.sh": `${"echo x\n".repeat(40_000)}` }) });
    expect(codes(a)).toEqual(["unread-file"]);
    expect(a.unrepresentable[0]?.message).toContain("`big.sh` is larger than lanes reads");
  });

  it("past the view's operations", () => {
    const a = analyze("bash a.sh", { disk: disk({ "a.sh": "echo a\n" }, { maxOperations: 1, maxBytes: 1 << 20 }) });
    expect(codes(a)).toEqual(["unread-file"]);
  });

  it("past the view's bytes, over every file of the call", () => {
    const files = { "a.sh": `# ${"a".repeat(600)}\nbash b.sh\n`, "b.sh": `# ${"b".repeat(600)}\n` };
    const a = analyze("bash a.sh", { disk: disk(files, { maxOperations: 256, maxBytes: 1000 }) });
    expect(a.reads.map((r) => [r.path, r.outcome])).toEqual([
      ["a.sh", "read"],
      ["b.sh", "unread"],
    ]);
    expect(codes(a)).toEqual(["unread-file"]);
  });

  it("a chain of files deeper than the nesting bound", () => {
    const files = Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`s${i}.sh`, `bash s${i + 1}.sh\n`]));
    const a = analyze("bash s0.sh", { disk: disk(files) });
    expect(codes(a)).toContain("depth-limit");
    expect(a.budgetExceeded).toBe(true);
  });

  it("a path known only at run time, a directory known only at run time", () => {
    expect(codes(analyze('bash "$S"', { disk: disk({}) }))).toEqual(["unread-file"]);
    expect(codes(analyze('cd "$D" && bash x.sh', { disk: disk({}) }))).toEqual(["unread-file"]);
  });
});
