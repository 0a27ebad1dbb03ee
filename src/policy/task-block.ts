/**
 * The task constraint block: the part of an Agent call's `prompt` that binds the subagent it
 * starts. Read deterministically: only the text between a line `<constraints>` and a line
 * `</constraints>` counts (every such block; they add up), one constraint per line, so nothing is
 * guessed from the free prose around it. Inside the block the phrasing is forgiving:
 *
 * | line (case-insensitive, bullets and a final period ignored)   | constraint                      |
 * |----------------------------------------------------------------|---------------------------------|
 * | `read-only`, `read only`, `do not modify any files`, `make no changes` | no writes at all         |
 * | `only modify <paths>` (also touch, edit, change, write, write to, create, work in) | writes only there |
 * | `do not modify <paths>` (also touch, edit, change, write, delete; don't, never, must not) | never there |
 * | `do not change test fixtures or recorded outputs` (any line naming fixtures, snapshots, recorded or golden outputs after a negation) | fixture and snapshot paths are never written |
 * | `do not run <command>` (also execute; several joined by `,`, `or`, `and`) | that command (program and leading words) is denied |
 *
 * Paths follow the policy's glob convention (project-relative, a bare name matches at any depth,
 * a trailing `/` covers the directory). Words of a line that do not look like paths (`files in`)
 * are skipped; a line that names nothing lanes understands is kept as `ignored` (shown by
 * `lanes agents`), never turned into a guess. Constraints only narrow: the lane, the MUST NOT
 * rules and the global rules still apply whatever the block says.
 */

/** What a block says, as plain data (globs as written). */
export interface TaskBlock {
  readonly readOnly: boolean;
  /** `only modify`: writes outside these globs are denied. */
  readonly onlyPaths: readonly string[];
  /** `do not modify`: writes inside these globs are denied. */
  readonly forbiddenPaths: readonly string[];
  /** `do not change test fixtures or recorded outputs`. */
  readonly fixtures: boolean;
  /** `do not run`: each entry is a program followed by its leading words, e.g. [git, push]. */
  readonly commands: readonly (readonly string[])[];
  /** Lines of the block lanes did not understand (not enforced). */
  readonly ignored: readonly string[];
}

/** Globs of test fixtures and recorded outputs (snapshots, golden files, cassettes). */
export const FIXTURE_GLOBS: readonly string[] = [
  "__snapshots__/",
  "*.snap",
  "*-snapshots/",
  "fixtures/",
  "__fixtures__/",
  "testdata/",
  "golden/",
  "*.golden",
  "cassettes/",
  "recordings/",
];

const OPEN = "<constraints>";
const CLOSE = "</constraints>";

const NEGATIONS = [
  "do not ",
  "don't ",
  "dont ",
  "never ",
  "must not ",
  "you must not ",
  "you may not ",
  "may not ",
  "you should not ",
  "should not ",
];
const WRITE_VERBS = ["modify", "touch", "edit", "change", "write to", "write", "delete", "remove", "create"];
const ONLY_PREFIXES = ["you may only ", "you can only ", "you should only ", "only "];
const ONLY_VERBS = ["modify", "touch", "edit", "change", "write to", "write", "create", "work in", "work on"];
const RUN_VERBS = ["run", "execute", "invoke"];
const READ_ONLY = new Set([
  "make no changes",
  "no writes",
  "no changes",
  "no edits",
  "change nothing",
  "modify nothing",
  "write nothing",
]);
/** `read-only` as a word anywhere in the line (`you are read-only`, `read-only: report only`). */
const READ_ONLY_WORD = /(?:^|[\s(])read[- ]?only(?=$|[\s.,:;)])/;
const NOTHING = new Set([
  "anything",
  "any file",
  "any files",
  "files",
  "the code",
  "any code",
  "the repository",
  "the repo",
  "the codebase",
  "code",
]);
/** Verbs for which "do not <verb> anything" means read-only (not `delete`: that forbids deletes only). */
const MODIFY_VERBS = new Set(["modify", "touch", "edit", "change", "write to", "write"]);
/** Other ways to say "only modify <paths>". */
const ONLY_FORMS = [
  /^(?:stay|work|remain) (?:within|inside|in) (.+)$/,
  /^(?:restrict|limit|confine|keep) (?:your |all |the )?(?:changes|edits|writes|work) (?:to|within|inside|in) (.+)$/,
  /^(?:changes|edits|writes|modifications) (?:only|are limited to|limited to|only to|only in) (.+)$/,
  /^(?:modify|touch|edit|change|write) only (.+)$/,
];
/** Other ways to say "do not modify <paths>". */
const FORBID_FORMS = [
  /^no (?:changes|edits|writes|modifications) (?:to|in|under) (.+)$/,
  /^(?:leave|keep) (.+?) (?:untouched|unchanged|alone|as it is|as is)$/,
  /^(.+?) (?:is|are) off[- ]limits$/,
];
/** Git and npm verbs that name their command: `do not push` is `git push`. */
const VERB_COMMANDS: Readonly<Record<string, readonly string[]>> = {
  push: ["git", "push"],
  "force-push": ["git", "push", "--force"],
  "force push": ["git", "push", "--force"],
  commit: ["git", "commit"],
  publish: ["npm", "publish"],
};

/** The lines between `<constraints>` and `</constraints>` (case-insensitive), block by block; an unclosed block is not read. */
export function constraintBlocks(prompt: string): string[][] {
  const blocks: string[][] = [];
  const lower = prompt.toLowerCase();
  for (let from = 0; ;) {
    const open = lower.indexOf(OPEN, from);
    if (open === -1) break;
    const close = lower.indexOf(CLOSE, open + OPEN.length);
    if (close === -1) break;
    const lines = prompt
      .slice(open + OPEN.length, close)
      .split("\n")
      .map((l) => l.trim())
      .filter((l) => l !== "" && !l.startsWith("```"));
    blocks.push(lines);
    from = close + CLOSE.length;
  }
  return blocks;
}

/** `- Do not modify src/x.` → `do not modify src/x`, keeping the path's case in `original`. */
function normalise(line: string): { lower: string; original: string } {
  let text = line.trim();
  for (;;) {
    const next = text.replace(/^(?:[-*+\u2022]\s+|\d+[.)]\s*|\[[ x]\]\s+)/, "");
    if (next === text) break;
    text = next;
  }
  text = text.replace(/[.;:!]+$/, "").trim();
  // markdown emphasis around words (`**Do not** touch`), never inside globs (they hold `/` or `.`)
  text = text.replace(/(\*\*|__)([A-Za-z' ]+)\1/g, "$2").replace(/(^|\s)\*([A-Za-z' ]+)\*(?=\s|$)/g, "$1$2");
  for (const lead of ["please ", "you must ", "must "]) {
    const lower = text.toLowerCase();
    if (lower.startsWith(lead) && !lower.startsWith(`${lead}not `)) text = text.slice(lead.length);
  }
  return { lower: text.toLowerCase().replace(/\u2019/g, "'"), original: text };
}

/** The rest of `text` after `prefix + verb + " "`, for the first verb that fits. */
function after(
  lower: string,
  original: string,
  prefixes: readonly string[],
  verbs: readonly string[],
): string | undefined {
  for (const p of prefixes) {
    if (!lower.startsWith(p)) continue;
    for (const v of verbs) {
      const head = `${p}${v}`;
      if (lower === head) return "";
      if (lower.startsWith(`${head} `)) return original.slice(head.length + 1).trim();
    }
  }
  return undefined;
}

/** Path-looking words of a list: `src/a/, src/b/** and docs/x.md` → three globs. */
function pathsOf(text: string): string[] {
  const words = text
    .replace(/`/g, " ")
    .split(/[\s,]+/)
    .map((w) => w.replace(/^["'(]+|["')]+$/g, ""))
    .filter(
      (w) =>
        w !== "" &&
        !["and", "or", "nor", "the", "in", "under", "files", "file", "folder", "directory", "any", "anything"].includes(
          w.toLowerCase(),
        ),
    );
  return words.filter((w) => w.includes("/") || w.includes("*") || /\.[A-Za-z0-9]{1,10}$/.test(w));
}

/** `git push, npm publish or rm -rf` → [[git, push], [npm, publish], [rm, -rf]]. */
function commandsOf(text: string): string[][] {
  const inner = [...text.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
  const parts = inner.length > 0 ? inner : text.split(/\s*(?:,|\bor\b|\band\b|\bnor\b)\s*/);
  return parts
    .map((p) =>
      p
        .trim()
        .split(/\s+/)
        .filter((w) => w !== ""),
    )
    .filter((words) => words.length > 0 && !["anything", "commands", "any"].includes(words[0]!.toLowerCase()));
}

const mentionsFixtures = (lower: string): boolean =>
  ["fixture", "recorded output", "snapshot", "golden", "cassette", "recording"].some((w) => lower.includes(w));

/** Parses every constraint block of a prompt; `undefined` when it has none. */
export function parseTaskBlock(prompt: string): TaskBlock | undefined {
  const blocks = constraintBlocks(prompt);
  if (blocks.length === 0) return undefined;
  let readOnly = false;
  let fixtures = false;
  const onlyPaths: string[] = [];
  const forbiddenPaths: string[] = [];
  const commands: string[][] = [];
  const ignored: string[] = [];
  for (const line of blocks.flat()) {
    const { lower, original } = normalise(line);
    const negated = NEGATIONS.some((n) => lower.startsWith(n));
    if (READ_ONLY.has(lower) || (!negated && READ_ONLY_WORD.test(lower))) {
      readOnly = true;
      continue;
    }
    if (negated && mentionsFixtures(lower)) {
      fixtures = true;
      // a line may also name paths: `do not touch fixtures/ or test/golden/`
      forbiddenPaths.push(...pathsOf(after(lower, original, NEGATIONS, WRITE_VERBS) ?? ""));
      continue;
    }
    const verb = negated
      ? Object.keys(VERB_COMMANDS).find((v) =>
          NEGATIONS.some((n) => lower === `${n}${v}` || lower.startsWith(`${n}${v} `)),
        )
      : undefined;
    if (verb !== undefined) {
      commands.push([...VERB_COMMANDS[verb]!]);
      continue;
    }
    const run = after(lower, original, NEGATIONS, RUN_VERBS);
    if (run !== undefined) {
      const found = commandsOf(run);
      if (found.length > 0) commands.push(...found);
      else ignored.push(line);
      continue;
    }
    const forbidden = after(lower, original, NEGATIONS, WRITE_VERBS);
    if (forbidden !== undefined) {
      const paths = pathsOf(forbidden);
      const modifyVerb = WRITE_VERBS.some(
        (v) => MODIFY_VERBS.has(v) && NEGATIONS.some((n) => lower.startsWith(`${n}${v}`)),
      );
      if (paths.length > 0) forbiddenPaths.push(...paths);
      else if (modifyVerb && (NOTHING.has(forbidden.toLowerCase()) || forbidden === "")) readOnly = true;
      else ignored.push(line);
      continue;
    }
    const forbidForm = FORBID_FORMS.map((f) => f.exec(lower)).find((m) => m !== null);
    if (forbidForm !== undefined && forbidForm !== null) {
      const paths = pathsOf(
        original.slice(
          forbidForm.index + forbidForm[0].indexOf(forbidForm[1]!),
          forbidForm.index + forbidForm[0].indexOf(forbidForm[1]!) + forbidForm[1]!.length,
        ),
      );
      if (paths.length > 0) forbiddenPaths.push(...paths);
      else ignored.push(line);
      continue;
    }
    const onlyForm = ONLY_FORMS.map((f) => f.exec(lower)).find((m) => m !== null);
    const only =
      after(lower, original, ONLY_PREFIXES, ONLY_VERBS) ??
      (onlyForm ? original.slice(lower.lastIndexOf(onlyForm[1]!)) : undefined);
    if (only !== undefined) {
      const paths = pathsOf(only);
      if (paths.length > 0) onlyPaths.push(...paths);
      else ignored.push(line);
      continue;
    }
    ignored.push(line);
  }
  return { readOnly, onlyPaths, forbiddenPaths, fixtures, commands, ignored };
}

/** A block as one line, for `lanes agents` and the SubagentStart reminder. */
export function taskText(task: TaskBlock | null | undefined): string {
  if (task === undefined) return "not read yet";
  if (task === null) return "none";
  const parts = [
    ...(task.readOnly ? ["read-only"] : []),
    ...(task.onlyPaths.length > 0 ? [`only modify ${task.onlyPaths.join(", ")}`] : []),
    ...(task.forbiddenPaths.length > 0 ? [`do not modify ${task.forbiddenPaths.join(", ")}`] : []),
    ...(task.fixtures ? ["do not change test fixtures or recorded outputs"] : []),
    ...task.commands.map((c) => `do not run ${c.join(" ")}`),
    ...(task.ignored.length > 0 ? [`not understood: ${task.ignored.map((l) => JSON.stringify(l)).join(", ")}`] : []),
  ];
  return parts.length === 0 ? "a block without constraints" : parts.join("; ");
}

/** The block the orchestrator protocol tells orchestrators to write (documentation and tests). */
export const CONSTRAINT_BLOCK_EXAMPLE = [
  OPEN,
  "- only modify src/server/users/**",
  "- do not modify src/server/auth/**",
  "- do not run git push",
  "- do not change test fixtures or recorded outputs",
  CLOSE,
].join("\n");
