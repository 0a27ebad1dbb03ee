/**
 * The links a command line makes (`linkEffects`, src/shell/links.ts): programs and interpreter
 * APIs, what the link leads to, where it is placed and what a relative target is taken from.
 */
import { describe, expect, it } from "vitest";
import { linkCopies, linkEffects } from "../../src/shell/index.ts";
import { analyze, shown } from "./helpers.ts";

/** A link as `kind target -> name place/base [R][F]`, e.g. `symbolic .claude -> d maybe-into/link`. */
function links(source: string): string[] {
  return linkEffects(analyze(source)).map((l) => {
    const marks = `${l.recursive ? "R" : ""}${l.force ? "F" : ""}`;
    return [l.kind, shown(l.target), "->", shown(l.name), `${l.place}/${l.base}`, marks]
      .filter((p) => p !== "")
      .join(" ");
  });
}

describe("links made by programs", () => {
  it.each<[string, string[]]>([
    ["ln -s .claude/lanes/dist d", ["symbolic .claude/lanes/dist -> d maybe-into/link"]],
    ["ln --symbolic .claude d", ["symbolic .claude -> d maybe-into/link"]],
    ["ln -sfn ../v2 current", ["symbolic ../v2 -> current maybe-into/link F"]],
    ["ln -sT .claude cfg", ["symbolic .claude -> cfg exact/link"]],
    ["ln -s .env", ["symbolic .env -> . into/link"]],
    ["ln -s a b dir", ["symbolic a -> dir into/link", "symbolic b -> dir into/link"]],
    ["ln -s x dir/", ["symbolic x -> dir/ into/link"]],
    ["ln -st bin ../tools/a", ["symbolic ../tools/a -> bin into/link"]],
    ["ln -s -t bin ../tools/a", ["symbolic ../tools/a -> bin into/link"]],
    ["ln -sr .claude/settings.json s.json", ["symbolic .claude/settings.json -> s.json maybe-into/cwd"]],
    ["ln .claude/settings.json h.json", ["hard .claude/settings.json -> h.json maybe-into/cwd"]],
    ["gln -s .env e", ["symbolic .env -> e maybe-into/link"]],
    ["sudo ln -s /etc/shadow s", ["symbolic /etc/shadow -> s maybe-into/link"]],
    ["busybox ln -s .claude c", ["symbolic .claude -> c maybe-into/link"]],
    ["cp -s /work/proj/.env e", ["symbolic /work/proj/.env -> e maybe-into/link"]],
    ["cp --symbolic-link a b", ["symbolic a -> b maybe-into/link"]],
    ["cp -l .claude/settings.json y", ["hard .claude/settings.json -> y maybe-into/cwd"]],
    ["cp -al .claude/lanes/dist d", ["hard .claude/lanes/dist -> d maybe-into/cwd R"]],
    ["cp -rs /work/proj/.claude d", ["symbolic /work/proj/.claude -> d maybe-into/link R"]],
    ["cp --link -t out a", ["hard a -> out into/cwd"]],
    ["link .claude/settings.json z", ["hard .claude/settings.json -> z exact/cwd"]],
    ["sln .claude c", ["symbolic .claude -> c exact/link"]],
    ["mklink /D cfg .claude", ["symbolic .claude -> cfg exact/link"]],
    ["mklink /H h.json .claude/settings.json", ["hard .claude/settings.json -> h.json exact/cwd"]],
    ["New-Item -ItemType SymbolicLink -Path cfg -Target .claude", ["symbolic .claude -> cfg exact/link"]],
    ["ni -it HardLink -Name h -Value .env -Force", ["hard .env -> h exact/cwd F"]],
    ["New-Item -Path cfg -ItemType:Junction -Target:.claude", ["symbolic .claude -> cfg exact/link"]],
    ["lndir ../.claude shadow", ["symbolic ../.claude -> shadow exact/name R"]],
    ["lndir /srv/tree", ["symbolic /srv/tree -> . exact/name R"]],
    ["rsync -a --link-dest=../prev src/ snap/", ["hard ../prev -> snap/ exact/name R"]],
    ['X=.claude; ln -s "$X" c', ["symbolic .claude -> c maybe-into/link"]],
    ['ln -s "$TARGET" c', ['symbolic <"$TARGET"> -> c maybe-into/link']],
    // what `find` finds lies in its start paths
    [
      "find .claude/lanes/dist -name '*.cjs' -exec ln -sf {} . \\;",
      ["symbolic .claude/lanes/dist -> . maybe-into/link RF"],
    ],
  ])("%s", (source, expected) => {
    expect(links(source)).toEqual(expected);
  });

  it.each([
    "cp a b",
    "cp -r src dst",
    "cp -a node_modules vendor",
    "ln --help",
    "ls -l",
    "readlink -f x",
    "rsync -a src/ dst/",
    "New-Item -ItemType Directory -Path d",
    "mv link elsewhere",
    "npm link",
  ])("%s makes no link", (source) => {
    expect(links(source)).toEqual([]);
  });
});

describe("links made by interpreter code", () => {
  it.each<[string, string[]]>([
    [
      `python3 -c "import os; os.symlink('.claude/lanes/dist', 'pkg')"`,
      ["symbolic .claude/lanes/dist -> pkg exact/link"],
    ],
    [`python3 -c "import os; os.link('.env', 'e.txt')"`, ["hard .env -> e.txt exact/cwd"]],
    [`python3 -c "from pathlib import Path; Path('c').symlink_to('.claude')"`, ["symbolic .claude -> c exact/link"]],
    [`python3 -c "from pathlib import Path; Path('h').hardlink_to('.env')"`, ["hard .env -> h exact/cwd"]],
    [`python3 -c "from pathlib import Path; Path('.env').link_to('h')"`, ["hard .env -> h exact/cwd"]],
    [
      `node -e "require('fs').symlinkSync('.claude/lanes/dist', 'lib2')"`,
      ["symbolic .claude/lanes/dist -> lib2 exact/link"],
    ],
    [`node -e "require('fs').promises.symlink('.claude', 'c')"`, ["symbolic .claude -> c exact/link"]],
    [`node -e "const fs = require('node:fs'); fs.linkSync('.env', 'e')"`, ["hard .env -> e exact/cwd"]],
    [`node -e "require('fs-extra').ensureSymlinkSync('.claude', 'c')"`, ["symbolic .claude -> c exact/either"]],
    [`perl -e 'symlink(".claude", "c")'`, ["symbolic .claude -> c exact/link"]],
    [`perl -e 'link ".env", "e"'`, ["hard .env -> e exact/cwd"]],
    [`ruby -e 'File.symlink(".claude", "c")'`, ["symbolic .claude -> c exact/link"]],
    [`ruby -e 'require "fileutils"; FileUtils.ln_s(".claude", "c")'`, ["symbolic .claude -> c maybe-into/link"]],
    [`php -r 'symlink(".claude", "c");'`, ["symbolic .claude -> c exact/link"]],
    [`python3 -c "import os; os.symlink(os.environ['T'], 'c')"`, ["symbolic <<run-time path>> -> c exact/link"]],
  ])("%s", (source, expected) => {
    expect(links(source)).toEqual(expected);
  });
});

describe("paths moved or copied as they are (a link stays a link)", () => {
  const copies = (source: string): string[] =>
    linkCopies(analyze(source)).map((c) => `${shown(c.from)} -> ${shown(c.to)} ${c.place}`);
  it.each<[string, string[]]>([
    ["mv x sub/", ["x -> sub/ into"]],
    ["mv x y", ["x -> y maybe-into"]],
    ["mv -T x y", ["x -> y exact"]],
    ["mv a b dir", ["a -> dir into", "b -> dir into"]],
    ["mv -t dir a", ["a -> dir into"]],
    ["cp -P link copy", ["link -> copy maybe-into"]],
    ["cp -a tree backup/", ["tree -> backup/ into"]],
    ["cp -r dir out", ["dir -> out maybe-into"]],
    ["cp a b", []],
    ["cp -rL dir out", []],
  ])("%s", (source, expected) => {
    expect(copies(source)).toEqual(expected);
  });
});
