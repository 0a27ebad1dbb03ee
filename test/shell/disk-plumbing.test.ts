/**
 * The disk seam reaches the handlers: a case in the corpus format with `files:` and `links:`
 * (test/cases/README.md) builds a fake disk, which the evaluation hands through the facts and the
 * shell analysis to every handler as `Walk.disk`. The C compiler handler is wrapped here to look;
 * no handler reads the disk yet, so the decision is the one without it.
 */
import { describe, expect, it, vi } from "vitest";
import { parse } from "yaml";
import type { FileText, PathKind } from "../../src/host/disk-view.ts";
import { caseDisk, type CorpusCase } from "../helpers/corpus.ts";
import { expectDecision, judge, testPolicy } from "../helpers/guard.ts";

const seen = vi.hoisted(() => [] as { kind: unknown; real: unknown; text: unknown }[]);

vi.mock("../../src/shell/handlers/compilers.ts", async (importOriginal) => {
  const original = await importOriginal<typeof import("../../src/shell/handlers/compilers.ts")>();
  return {
    ...original,
    compiler: (...args: Parameters<typeof original.compiler>) => {
      const [walk] = args;
      seen.push({
        kind: walk.disk.kind("/work/app/src"),
        real: walk.disk.realpath("/work/app/src/main.c"),
        text: walk.disk.readText("/work/app/build.c", 64),
      });
      original.compiler(...args);
    },
  };
});

const [c] = (
  parse(`
cases:
  - command: cc build.c -o build
    decision: none
    files: { build.c: "int main(void) { return 0; }", "/srv/src/main.c": { content: "x", mode: 0o644 } }
    links: { src: /srv/src }
`) as { cases: CorpusCase[] }
).cases;

describe("the disk of a corpus case", () => {
  it("reaches the handler interface and changes no decision", () => {
    const disk = caseDisk(c!);
    expectDecision(judge(testPolicy(), c!.command, { ...(disk !== undefined && { disk }) }), c!.decision);
    expect(seen).toEqual([
      {
        kind: { kind: "symlink", target: "/srv/src" } satisfies PathKind,
        real: "/srv/src/main.c",
        text: { text: "int main(void) { return 0; }", truncated: false } satisfies FileText,
      },
    ]);
  });

  it("is no disk at all without `files:` and `links:`", () => {
    seen.length = 0;
    judge(testPolicy(), "cc build.c");
    expect(seen).toEqual([{ kind: undefined, real: undefined, text: undefined }]);
  });
});
