/**
 * Where paths lead (src/policy/resolve.ts): through links on the disk and links the line makes,
 * up to the directory only for what is replaced, `..` after a link as the kernel reads it, the
 * project and home by their real paths, kernel objects left alone, and a bound that says so.
 */
import { describe, expect, it } from "vitest";
import type { PathContext } from "../../src/policy/paths.ts";
import { pathResolver } from "../../src/policy/resolve.ts";
import { fakeDisk } from "../helpers/disk.ts";

const ctx: PathContext = {
  cwd: "/work/app",
  projectDir: "/work/app",
  home: "/home/dev",
  tempDirs: ["/tmp"],
  caseInsensitive: false,
};

const disk = () =>
  fakeDisk({
    files: {
      "/work/app/.env": "S=1",
      "/work/app/.claude/settings.json": "{}",
      "/srv/lanes-checkout/dist/pre-tool-use.cjs": "x",
      "/work/app/src/server/api.ts": "",
      "/srv/real-home/dev/.ssh/id_ed25519": "k",
      "/data/tmp/x": "",
    },
    links: {
      "/work/app/notes": ".claude/lanes/dist",
      "/work/app/config.txt": ".env",
      "/work/app/src/components/srv": "../server",
      "/work/app/chain": "notes",
      "/work/app/loop": "loop",
      "/work/app/alias": "/work/app",
      "/home/dev": "/srv/real-home/dev",
      "/tmp": "/data/tmp",
      "/work/app/.claude/lanes": "/srv/lanes-checkout",
    },
  });

describe("a path through the links on disk", () => {
  it.each<[string, boolean, string | undefined, string | undefined | null]>([
    ["/work/app/notes/pre-tool-use.cjs", true, undefined, "/work/app/.claude/lanes/dist/pre-tool-use.cjs"],
    ["/work/app/chain/pre-tool-use.cjs", true, undefined, "/work/app/.claude/lanes/dist/pre-tool-use.cjs"],
    ["/work/app/config.txt", true, undefined, "/work/app/.env"],
    // a delete or a link's own name: the last component is what is replaced
    ["/work/app/config.txt", false, undefined, "/work/app/config.txt"],
    ["/work/app/notes/x", false, undefined, "/work/app/.claude/lanes/dist/x"],
    ["/work/app/src/components/srv/api.ts", true, undefined, "/work/app/src/server/api.ts"],
    // `cd notes && cat ../settings.json`: `..` after the link is its target's parent
    ["/work/app/settings.json", true, "/work/app/notes/../settings.json", "/work/app/.claude/lanes/settings.json"],
    ["/work/app/new/file.txt", true, undefined, "/work/app/new/file.txt"],
    ["/work/app/loop/x", true, undefined, undefined],
    // another spelling of the project is the project
    ["/work/app/alias/.claude/settings.json", true, undefined, "/work/app/.claude/settings.json"],
    // the home and temp directories by their real paths map back to them
    ["/home/dev/.ssh/id_ed25519", true, undefined, "/home/dev/.ssh/id_ed25519"],
    ["/srv/real-home/dev/.ssh/id_ed25519", true, undefined, "/home/dev/.ssh/id_ed25519"],
    ["/tmp/x", true, undefined, "/tmp/x"],
    // lanes' own files where they really are: `.claude/lanes` is a link to a shared checkout
    ["/srv/lanes-checkout/dist/pre-tool-use.cjs", true, undefined, "/work/app/.claude/lanes/dist/pre-tool-use.cjs"],
    // kernel objects lead into the hook's own process: never resolved
    ["/dev/stdout", true, undefined, "/dev/stdout"],
    ["/proc/self/fd/1", true, undefined, "/proc/self/fd/1"],
  ])("%s (follow %s, physical %s) → %s", (path, follow, physical, expected) => {
    expect(pathResolver(disk(), new Map(), ctx).resolve(path, follow, physical)).toBe(expected);
  });
});

describe("a path through the links the line makes", () => {
  const line = new Map<string, string | undefined>([
    ["/work/app/d", ".claude/lanes/dist"],
    ["/work/app/made/deep/c", "../../.claude"],
    ["/work/app/h.txt", "/work/app/.env"],
    ["/work/app/rt", undefined],
  ]);
  it.each<[string, string | undefined | null]>([
    ["/work/app/d/pre-tool-use.cjs", "/work/app/.claude/lanes/dist/pre-tool-use.cjs"],
    // the directories a link is made in exist by then (`mkdir -p made/deep && ln -s ...`)
    ["/work/app/made/deep/c/settings.json", "/work/app/.claude/settings.json"],
    ["/work/app/h.txt", "/work/app/.env"],
    // a link to a run-time value: where it leads is not known
    ["/work/app/rt/x", null],
    ["/work/app/other", "/work/app/other"],
  ])("%s → %s", (path, expected) => {
    expect(pathResolver(disk(), line, ctx).resolve(path, true)).toBe(expected);
  });

  it("needs no disk: a pure evaluation still sees the line's own links", () => {
    const resolver = pathResolver(undefined, line, ctx);
    expect(resolver.resolve("/work/app/d/x", true)).toBe("/work/app/.claude/lanes/dist/x");
    expect(resolver.resolve("/work/app/notes/x", true)).toBe("/work/app/notes/x");
    expect(resolver.exhausted).toBe(false);
  });

  it("matches names as the file system does when paths are case-insensitive", () => {
    const resolver = pathResolver(undefined, line, { ...ctx, caseInsensitive: true });
    expect(resolver.resolve("/work/app/D/x", true)).toBe("/work/app/.claude/lanes/dist/x");
  });
});

describe("the disk's bound", () => {
  it("says when it was reached, and answers nothing past it", () => {
    const small = fakeDisk({ links: { "/work/app/a/b/c/d": "/x" } }, { maxOperations: 3, maxBytes: 10 });
    const resolver = pathResolver(small, new Map(), ctx);
    expect(resolver.resolve("/work/app/a/b/c/d/e", true)).toBeUndefined();
    expect(resolver.exhausted).toBe(true);
  });

  it("asks the disk once per path component in a call", () => {
    const d = fakeDisk({ files: { "/work/app/src/server/a.ts": "", "/home/dev/.bashrc": "", "/tmp/t": "" } });
    const resolver = pathResolver(d, new Map(), ctx);
    resolver.resolve("/work/app/src/server/a.ts", true);
    const first = d.spent.operations;
    for (const name of ["b", "c", "d", "e"]) resolver.resolve(`/work/app/src/server/${name}.ts`, true);
    // after the first path (its directories, and the real paths of the roots and lanes' own
    // files), one `lstat` per new file
    expect(d.spent.operations - first).toBe(4);
    expect(first).toBeLessThan(24);
  });
});
