/**
 * Programs and interpreter APIs that make links, as data for `links.ts`. Checked against the
 * programs' own documentation:
 *
 * - `ln` (GNU coreutils, BSD): `ln [-s] TARGET [NAME]`, `ln TARGET... DIR`, `ln -t DIR TARGET...`;
 *   `-s` symbolic (else hard), `-T` the name is the link itself, `-r` relative to the working
 *   directory, `-f` replaces, `-n`/`-h` does not enter a name that is a link to a directory.
 * - `cp -s`/`--symbolic-link` makes symbolic links instead of copies, `cp -l`/`--link` hard links
 *   (with `-r`/`-a`: for a whole tree); `cp` alone copies and makes no link.
 * - `link FILE1 FILE2` (coreutils): one hard link, no options.
 * - `sln SOURCE DEST` (glibc's static `ln -s`).
 * - `mklink [/D | /H | /J] LINK TARGET` (cmd.exe): the link comes first; `/H` a hard link, `/D`
 *   and `/J` a directory link.
 * - `New-Item -ItemType SymbolicLink|HardLink|Junction -Path LINK -Target TARGET` (PowerShell,
 *   also `-Value` and the alias `ni`).
 * - `lndir FROMDIR [TODIR]` (X.Org): a tree of symbolic links to FROMDIR's files, relative to TODIR.
 * - `rsync --link-dest=DIR`: unchanged files in the destination are hard links to DIR's (a relative
 *   DIR is relative to the destination).
 *
 * Not makers of links, after checking: GNU `install` (no link option; BSD's `-l` is not on the
 * platforms Claude Code runs on), `npm link` and `pnpm link` (a link in the global prefix to the
 * project, or to a package the user installed). But `mv`, and `cp` with `-P`, `-d`, `-a` or `-R`
 * (not `-L`), move or copy a symbolic link as a link: a relative target then leads somewhere new
 * (`LINK_COPIERS`).
 */
import type { LinkEffect } from "../types.ts";

/** How one program makes links from its arguments. */
export interface LinkProgram {
  /** Flags that make the links symbolic. */
  readonly symbolic?: readonly string[];
  /** Flags that make them hard links. */
  readonly hard?: readonly string[];
  /** The kind without any of those flags; absent: no link without one (`cp` copies). */
  readonly default?: LinkEffect["kind"];
  /** Options whose value is the directory the links go into (`-t DIR`). */
  readonly targetDir?: readonly string[];
  /** Flags that make the last operand the link itself, never a directory to enter (`-T`). */
  readonly exact?: readonly string[];
  /** Flags that make relative targets relative to the working directory (`ln -r`). */
  readonly relative?: readonly string[];
  readonly recursive?: readonly string[];
  readonly force?: readonly string[];
  /** A lone operand makes a link of that name in the working directory (`ln /x/y` → `./y`). */
  readonly single?: boolean;
  /** Exactly two operands, in this order; no directory to enter (`link`, `mklink`). */
  readonly pair?: "target-name" | "name-target";
  /** cmd.exe switches (`/H`): those that make a hard link, and every switch to skip. */
  readonly switches?: { readonly hard: readonly string[]; readonly all: readonly string[] };
  /** Shapes that need their own code (see `links.ts`). */
  readonly custom?: "rsync" | "lndir" | "new-item";
}

const LN: LinkProgram = {
  symbolic: ["-s", "--symbolic"],
  default: "hard",
  targetDir: ["-t", "--target-directory"],
  exact: ["-T", "--no-target-directory"],
  relative: ["-r", "--relative"],
  force: ["-f", "--force"],
  single: true,
};

const CP: LinkProgram = {
  symbolic: ["-s", "--symbolic-link"],
  hard: ["-l", "--link"],
  targetDir: ["-t", "--target-directory"],
  exact: ["-T", "--no-target-directory"],
  recursive: ["-r", "-R", "--recursive", "-a", "--archive"],
  force: ["-f", "--force", "--remove-destination"],
};

const MKLINK: LinkProgram = {
  default: "symbolic",
  pair: "name-target",
  switches: { hard: ["/h"], all: ["/d", "/h", "/j"] },
};

const NEW_ITEM: LinkProgram = { custom: "new-item" };

/** Link makers by program name (`gln`, `gcp`: GNU coreutils as Homebrew installs them). */
export const LINK_PROGRAMS: Readonly<Record<string, LinkProgram>> = {
  ln: LN,
  gln: LN,
  cp: CP,
  gcp: CP,
  link: { default: "hard", pair: "target-name" },
  glink: { default: "hard", pair: "target-name" },
  sln: { default: "symbolic", pair: "target-name" },
  mklink: MKLINK,
  "mklink.exe": MKLINK,
  "New-Item": NEW_ITEM,
  "new-item": NEW_ITEM,
  ni: NEW_ITEM,
  lndir: { default: "symbolic", custom: "lndir" },
  rsync: { custom: "rsync" },
};

/** `New-Item` parameters, by what they give (PowerShell takes any unambiguous prefix). */
export const NEW_ITEM_PARAMETERS: Readonly<Record<string, "type" | "name" | "target" | "force">> = {
  "-itemtype": "type",
  "-type": "type",
  "-path": "name",
  "-name": "name",
  "-target": "target",
  "-value": "target",
  "-force": "force",
};

/** `New-Item -ItemType` values that make a link, by kind (lowercase). */
export const NEW_ITEM_TYPES: Readonly<Record<string, LinkEffect["kind"]>> = {
  symboliclink: "symbolic",
  junction: "symbolic",
  hardlink: "hard",
};

/**
 * Interpreter APIs that make links (rows of `apis.ts` with access `symlink` or `hardlink`, whose
 * arguments come as target, then link) whose link is placed or whose target is read otherwise
 * than a plain `symlink(2)`/`link(2)`: exact, a symbolic target relative to the link's directory,
 * a hard one to the working directory.
 */
export const LINK_API_SHAPES: Readonly<Record<string, Pick<LinkEffect, "place" | "base">>> = {
  // `FileUtils.ln_s(src, dir)` makes `dir/src`; `ln_sr` is relative to the working directory
  "FileUtils.ln_s": { place: "maybe-into", base: "link" },
  "FileUtils.ln_sf": { place: "maybe-into", base: "link" },
  "FileUtils.symlink": { place: "maybe-into", base: "link" },
  "FileUtils.ln_sr": { place: "maybe-into", base: "cwd" },
  "FileUtils.ln": { place: "maybe-into", base: "cwd" },
  "FileUtils.link": { place: "maybe-into", base: "cwd" },
  // fs-extra tries the source relative to the link, then to the working directory
  "fs-extra.ensureSymlink": { place: "exact", base: "either" },
  "fs-extra.ensureSymlinkSync": { place: "exact", base: "either" },
  "fs-extra.createSymlink": { place: "exact", base: "either" },
  "fs-extra.createSymlinkSync": { place: "exact", base: "either" },
};

/** Programs that move or copy a symbolic link as a link (its target as written, read from its new place). */
export interface LinkCopier {
  /** Flags with which it does; absent: always (`mv`). */
  readonly flags?: readonly string[];
  /** Flags that make it copy what the link points at instead (`cp -L`). */
  readonly unless?: readonly string[];
  readonly targetDir: readonly string[];
  readonly exact: readonly string[];
}

const CP_COPIER: LinkCopier = {
  flags: ["-P", "--no-dereference", "-d", "-a", "--archive", "-R", "-r", "--recursive"],
  unless: ["-L", "--dereference", "-H"],
  targetDir: ["-t", "--target-directory"],
  exact: ["-T", "--no-target-directory"],
};
const MV_COPIER: LinkCopier = { targetDir: ["-t", "--target-directory"], exact: ["-T", "--no-target-directory"] };

export const LINK_COPIERS: Readonly<Record<string, LinkCopier>> = {
  mv: MV_COPIER,
  gmv: MV_COPIER,
  cp: CP_COPIER,
  gcp: CP_COPIER,
};
