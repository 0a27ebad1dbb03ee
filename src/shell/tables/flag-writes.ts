/**
 * Programs that write files because of a flag or a subcommand (formatters and linters with
 * `--write`/`--fix`, snapshot updates, `git apply`, `npm pkg set`, codemods): their argv says what
 * they write, which `flag-writes.ts` turns into write effects. Also run through a package runner
 * (`npx eslint --fix`, `npm -w api exec prettier --write x`).
 */
export interface FlagWrite {
  readonly programs: readonly string[];
  /** Leading positionals (a subcommand), `a|b` alternatives. */
  readonly args?: readonly string[];
  /** One of these makes it write (anywhere in argv, also after `--`); absent: it always writes. */
  readonly flags?: readonly string[];
  /** A dry run or check: no write. */
  readonly unless?: readonly string[];
  /** Options of the program that take a value (skipped when collecting operands). */
  readonly valued?: readonly string[];
  /** Operands that are not paths, after `args` (a codemod's transform name). */
  readonly skip?: number;
  /** `operands`: the path operands (default `defaults`); `globs`: these, under its directory; `unknown`: files named at run time. */
  readonly writes: "operands" | "unknown" | { readonly globs: readonly string[] };
  readonly defaults?: readonly string[];
}

const SNAPSHOT_FLAGS = ["-u", "--update", "--updateSnapshot", "--update-snapshots"];
/** The rows, tried in order for the program run and then the command itself; the first that matches decides. */
export const FLAG_WRITES: readonly FlagWrite[] = [
  {
    programs: ["eslint"],
    flags: ["--fix"],
    valued: [
      "-c",
      "--config",
      "--ext",
      "--rulesdir",
      "--format",
      "-f",
      "-o",
      "--output-file",
      "--parser",
      "--resolve-plugins-relative-to",
      "--max-warnings",
      "--cache-location",
    ],
    writes: "operands",
    defaults: ["."],
  },
  {
    programs: ["prettier"],
    flags: ["--write", "-w"],
    valued: ["--config", "--ignore-path", "--plugin", "--parser", "--log-level"],
    writes: "operands",
  },
  {
    programs: ["stylelint"],
    flags: ["--fix"],
    valued: ["--config", "-c", "--custom-syntax", "-o", "--output-file"],
    writes: "operands",
  },
  {
    programs: ["biome"],
    args: ["check|lint|format"],
    flags: ["--write", "--fix", "--apply", "--apply-unsafe", "--unsafe"],
    valued: ["--config-path"],
    writes: "operands",
    defaults: ["."],
  },
  {
    programs: ["ruff"],
    args: ["check"],
    flags: ["--fix"],
    valued: ["--config", "--select", "--ignore"],
    writes: "operands",
    defaults: ["."],
  },
  {
    programs: ["ruff"],
    args: ["format"],
    unless: ["--check", "--diff"],
    valued: ["--config"],
    writes: "operands",
    defaults: ["."],
  },
  {
    programs: ["black", "isort"],
    unless: ["--check", "--check-only", "--diff"],
    valued: ["--config", "-l", "--line-length"],
    writes: "operands",
  },
  { programs: ["autopep8"], flags: ["-i", "--in-place"], writes: "operands" },
  { programs: ["gofmt", "goimports"], flags: ["-w"], writes: "operands" },
  { programs: ["rustfmt"], unless: ["--check"], writes: "operands" },
  { programs: ["clang-format"], flags: ["-i"], valued: ["--style", "-style"], writes: "operands" },
  { programs: ["cargo"], args: ["fmt"], unless: ["--check"], writes: { globs: ["**/*.rs"] } },
  { programs: ["cargo"], args: ["clippy"], flags: ["--fix"], writes: { globs: ["**/*.rs"] } },
  { programs: ["git"], args: ["apply"], unless: ["--check", "--stat", "--numstat", "--summary"], writes: "unknown" },
  { programs: ["patch"], unless: ["--dry-run"], writes: "unknown" },
  { programs: ["npm", "pnpm"], args: ["pkg", "set|delete|fix"], writes: { globs: ["package.json"] } },
  { programs: ["vitest", "jest"], flags: SNAPSHOT_FLAGS, writes: { globs: ["**/__snapshots__/**"] } },
  {
    programs: ["npm", "pnpm", "yarn", "bun"],
    args: ["test|t|run"],
    flags: SNAPSHOT_FLAGS,
    writes: { globs: ["**/__snapshots__/**"] },
  },
  { programs: ["playwright"], args: ["test"], flags: SNAPSHOT_FLAGS, writes: { globs: ["**/*-snapshots/**"] } },
  {
    programs: ["jscodeshift"],
    unless: ["--dry", "-d"],
    valued: ["-t", "--transform", "--parser", "--extensions", "--ignore-pattern", "--ignore-config", "-c", "--cpus"],
    writes: "operands",
  },
  {
    programs: ["@next/codemod", "@codemod/cli", "codemod", "react-codemod"],
    unless: ["--dry", "-d"],
    skip: 1,
    writes: "operands",
  },
];

