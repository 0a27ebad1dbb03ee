/**
 * Step 2 of the evaluator: match compiled rules against facts. One generic function per match
 * kind; no rule is special-cased here (rule tables live in src/policy/rules/).
 */
import { compilePathGlob } from "../globs/compile.ts";
import type { CompiledGlob } from "../globs/types.ts";
import type { AgentRunKind, CompiledMatch, CompiledPolicy, CompiledRule } from "./compiled.ts";
import { guardContent } from "./guard-content.ts";
import { buildRuleIndex, indexedRules } from "./rule-index.ts";
import type { PathClass } from "../schema/vocabulary.ts";
import { envValues, optionValues, type CommandFact, type Facts, type FileFact } from "./facts.ts";
import { matchName, matchPath, type GlobRoots } from "../globs/match.ts";
import { classifyPath, deviceByName, type PathContext } from "./paths.ts";
import { assertNever } from "../host/assert-never.ts";
import { isWithin, normalizePath } from "../host/paths.ts";
import { toolNames } from "../host/tools.ts";
import { spawnsWithoutBound } from "./spawn.ts";
import { classifyCode, classifyConsoleCode, classifyKeyDeletion, classifySql } from "./sql.ts";
import { wildcard } from "../globs/wildcard.ts";
import { globsOverlap } from "../globs/overlap.ts";
import type { Layer, Match } from "./types.ts";
import { statementTexts } from "../shell/index.ts";
import type { CodeExecution, NetworkPeer, ShellWord } from "../shell/types.ts";

/** A rule-independent hit: what matched and where. */
interface Hit {
  readonly subject: string;
  readonly scope: string;
}

const hasAny = <T>(set: ReadonlySet<T>, items: readonly T[]): boolean => items.some((i) => set.has(i));

/**
 * True when the program is one of `names` (`x*`: any name starting with `x`); `fold`: in any case,
 * on a file system that ignores case (the analysis then records programs lowercased).
 */
function programMatches(program: string | undefined, names: readonly string[], fold = false): boolean {
  if (program === undefined) return false;
  const p = fold ? program.toLowerCase() : program;
  return names.some((given) => {
    const name = fold ? given.toLowerCase() : given;
    return name.endsWith("*") ? p.startsWith(name.slice(0, -1)) : p === name;
  });
}

/** True when one of the option's values matches one of the wanted words (`*` matches any text). */
function valueMatches(
  values: readonly { readonly value: string | undefined; readonly known?: ShellWord["known"] }[] | undefined,
  wanted: readonly string[],
): boolean {
  if (values === undefined) return false;
  return values.some(({ value, known }) =>
    value === undefined
      ? known !== undefined && wanted.some((w) => everyMatches(w, known.head, known.tail))
      : wanted.some((w) => wildcard(w, value)),
  );
}

const quote = (text: string): string => `\`${text.length > 120 ? `${text.slice(0, 117)}...` : text}\``;

/** The classes of a command operand, resolved against the command's cwd. */
function operandClasses(
  value: string | undefined,
  known: ShellWord["known"],
  glob: boolean,
  fact: CommandFact,
  ctx: PathContext,
  resolve: (path: string) => string,
): ReadonlySet<PathClass> {
  if (value === undefined) return deviceByName(known, ctx);
  const cwd = fact.command.cwd ?? ctx.cwd;
  const path = normalizePath(value, { cwd, home: ctx.home });
  const classes = classifyPath(path, glob, { ...ctx, cwd });
  // an operand is also what it leads to (`rsync --delete src/ home-link`)
  const real = glob ? path : resolve(path);
  if (real !== path) for (const c of classifyPath(real, false, { ...ctx, cwd })) classes.add(c);
  return classes;
}

/** Stands for a literal `*` (written `\*` in a pattern) on both sides of a wildcard match: no word holds it. */
const STAR = "\u0000";

/** One alternative against one word; `\*` is a literal star (`gs://b/\*\*` is the word `gs://b/**`). */
function altMatches(alt: string, value: string): boolean {
  if (!alt.includes("\\*")) return alt.length > 1 && alt.includes("*") ? wildcard(alt, value) : alt === value;
  const pattern = alt.replaceAll("\\*", STAR);
  const text = value.replaceAll("*", STAR);
  return pattern.includes("*") ? wildcard(pattern, text) : pattern === text;
}

/** What is known of a word whose value is not: the text it starts and ends with. */
type Known = ShellWord["known"];

/**
 * True when every text that starts with `head` and ends with `tail` (anything between) matches the
 * wildcard `pattern`: one of its stars takes the unknown middle, the pattern's pieces before that
 * star match within `head`, the pieces after it within `tail` (`*:main` for `"$(x):main"`).
 */
function everyMatches(pattern: string, head: string, tail: string): boolean {
  if (pattern.includes("\\*")) return false;
  const pieces = pattern.split("*");
  for (let i = 1; i < pieces.length; i++)
    if (wildcard(`${pieces.slice(0, i).join("*")}*`, head) && wildcard(`*${pieces.slice(i).join("*")}`, tail))
      return true;
  return false;
}

/**
 * One `args` entry against one word: `*` any word, `a|b` alternatives (a lone `*` among them is
 * literal), `db:*` a wildcard, `\*` a literal star; case-insensitive. A word only partly known
 * (`known`) matches when every value it may take matches.
 */
function wordMatches(pattern: string, word: string | undefined, known?: Known): boolean {
  if (word === undefined) {
    // a word only known at run time is still a word: `*` takes it (`git push "$REMOTE" +main`)
    if (pattern === "*") return true;
    if (known === undefined) return false;
    const head = known.head.toLowerCase();
    const tail = known.tail.toLowerCase();
    return pattern
      .toLowerCase()
      .split("|")
      .some((alt) => alt.length > 1 && everyMatches(alt, head, tail));
  }
  if (pattern === "*") return true;
  const value = word.toLowerCase();
  return pattern
    .toLowerCase()
    .split("|")
    .some((alt) => altMatches(alt, value));
}

/**
 * A path glob against a relative operand only partly known: the first path segment is what a bare
 * name glob (`+*`) meets; it matches when every value of that segment does.
 */
function partlyMatchesPath(glob: CompiledGlob, known: Known, roots: GlobRoots): boolean {
  if (known === undefined || glob.anchor !== "basename-anywhere") return false;
  const head = known.head;
  if (head === "" || head.startsWith("/") || head.startsWith("~")) return false;
  const slash = head.indexOf("/");
  if (slash >= 0) return slash > 0 && matchPath(glob, `/${head.slice(0, slash)}`, roots);
  const fold = (t: string): string => (glob.flags.includes("i") ? t.toLowerCase() : t);
  const plain = (g: string): boolean => ![...g].some((c) => "/?[]{}!\\".includes(c));
  return glob.globs.every(plain) && glob.globs.some((g) => everyMatches(fold(g), fold(head), ""));
}

/** A word the args patterns see; `suspect` when it may be the value of the option before it. */
interface ArgWord {
  readonly value: string | undefined;
  readonly suspect: boolean;
  readonly known?: Known;
}

/**
 * Matches `args` against the leading words; `**` stands for any number of words (0 or more). A
 * suspect word (maybe an option's value: `gh issue list --search delete`) is taken by `*` and `**`
 * but never by a literal word. Returns the index just past the last matched word, or -1.
 */
function matchArgs(args: readonly string[], words: readonly ArgWord[], a = 0, w = 0): number {
  if (a === args.length) return w;
  if (args[a] === "**") {
    for (let k = w; k <= words.length; k++) {
      const end = matchArgs(args, words, a + 1, k);
      if (end !== -1) return end;
    }
    return -1;
  }
  const word = words[w];
  if (word === undefined || (word.suspect && args[a] !== "*")) return -1;
  return wordMatches(args[a]!, word.value, word.known) ? matchArgs(args, words, a + 1, w + 1) : -1;
}

/** The positionals of a command, each marked suspect when it may be the value of the option before it (`ArgView.suspect`). */
function argWords(fact: CommandFact): ArgWord[] {
  const suspect = fact.view.suspect;
  return fact.view.positionals.map((word, i) => ({
    value: word.value,
    known: word.known,
    suspect: suspect[i] === true,
  }));
}

function matchCommand(
  m: Extract<CompiledMatch, { kind: "command" }>,
  facts: Facts,
  ctx: PathContext,
  roots: GlobRoots,
  seeThrough: boolean,
): Hit[] {
  const hits: Hit[] = [];
  for (const fact of facts.commands) {
    // `npx prisma migrate deploy` runs `prisma migrate deploy`: a package runner the shell analysis
    // does not unwrap is seen through for rules of lanes.yaml and agent files
    const direct = programMatches(fact.program, m.program, ctx.caseInsensitive);
    const run = direct || !seeThrough ? undefined : fact.view.runs;
    if (!direct && !(run !== undefined && programMatches(run.program, m.program, ctx.caseInsensitive))) continue;
    const args = m.args ?? [];
    let positionals = run === undefined ? fact.view.positionals : run.positionals;
    const words =
      run === undefined
        ? argWords(fact)
        : run.positionals.map((w) => ({ value: w.value, known: w.known, suspect: false }));
    let end = matchArgs(args, words);
    if (end === -1 && words.some((w) => w.suspect)) {
      // `cdk --profile prod deploy`: an option's value given as the next word reads as a positional;
      // without those words the args may match (a suspect word itself never matches a literal)
      positionals = positionals.filter((_, i) => !words[i]!.suspect);
      end = matchArgs(
        args,
        words.filter((w) => !w.suspect),
      );
    }
    if (end === -1) continue;
    const flags = fact.view.flags;
    if (m.flagsAny !== undefined && !m.flagsAny.some((f) => flags.has(f))) continue;
    if (m.flagsAll !== undefined && !m.flagsAll.every((group) => group.some((f) => flags.has(f)))) continue;
    if (m.flagsNone !== undefined && m.flagsNone.some((f) => flags.has(f))) continue;
    if (
      m.wordsNone !== undefined &&
      (run === undefined ? fact.view.positionals : run.positionals).some((p) =>
        m.wordsNone!.some((w) => (p.value === undefined ? w === "*" : wordMatches(w, p.value))),
      )
    )
      continue;
    if (m.doubleDash !== undefined && m.doubleDash !== fact.view.afterDoubleDash) continue;
    if (
      m.optionValues !== undefined &&
      !Object.entries(m.optionValues).every(([option, wanted]) => valueMatches(optionValues(fact, option), wanted))
    )
      continue;
    if (
      m.env !== undefined &&
      !Object.entries(m.env).every(([name, wanted]) => valueMatches(envValues(fact, name), wanted))
    )
      continue;
    const operands = positionals.slice(end);
    if (
      m.targets !== undefined &&
      !operands.some((w) => hasAny(operandClasses(w.value, w.known, w.glob, fact, ctx, facts.resolve), m.targets!))
    )
      continue;
    if (m.operands !== undefined) {
      const cwd = fact.command.cwd ?? ctx.cwd;
      const matched = operands.some((w) =>
        w.value === undefined
          ? m.operands!.some((g) => partlyMatchesPath(g, w.known, roots))
          : m.operands!.some((g) => {
              const path = normalizePath(w.value!, { cwd, home: ctx.home });
              return matchPath(g, path, roots) || matchPath(g, facts.resolve(path), roots);
            }),
      );
      if (!matched) continue;
    }
    hits.push({ subject: quote(fact.command.text), scope: fact.scope });
  }
  return hits;
}

/**
 * Whether a file access counts for a path rule's access mode. Reading covers running and sourcing
 * (`exec`) but not `use`: a program that consumes a key without showing it (`curl --key k.pem`)
 * discloses nothing, and neither does a mode change. `write-only` lets a secret be created or
 * written (`cp .env.example .env`, `openssl req -keyout k.pem`) and sourced (`set -a; . .env`: the
 * values go into the environment, not into the conversation), and still never read or deleted.
 */
function accessCounts(mode: Extract<CompiledMatch, { kind: "path" }>["access"], fact: FileFact): boolean {
  const a = fact.access;
  // a link to the file gives whoever follows it read and write access (a hard link: it is the file)
  const link = a === "link" || a === "hardlink";
  switch (mode) {
    case "zero-access":
      return a === "read" || a === "exec" || a === "write" || a === "delete" || link;
    case "write-only":
      // sourcing (`set -a; . .env`) loads values into the environment without showing them
      return a === "read" || a === "delete" || link;
    case "read-only":
      return a === "write" || a === "delete" || a === "chmod" || a === "chown" || link;
    case "no-delete":
      return a === "delete";
    case "no-write":
      return a === "write" || a === "delete" || link;
    case "no-read":
      return a === "read" || a === "exec" || link;
    case "no-list":
      return a === "list";
    case "no-share":
      return a === "share";
    default:
      return assertNever(mode);
  }
}

/**
 * A recursive read of a directory below the home directory that holds a file a home-anchored
 * pattern names (`scp -r ~/.aws host:` takes `~/.aws/credentials` along), or a link to one (`ln -s
 * ~/.config cfg` reaches `~/.config/gh/hosts.yml`). The home directory itself is left alone
 * (copying a whole home is a backup; a link to it is `fs.link-broad-tree`'s), and deleting such a
 * tree is the delete rules' job.
 */
function treeHoldsSecret(fact: FileFact, m: Extract<CompiledMatch, { kind: "path" }>, roots: GlobRoots): boolean {
  const whole = (fact.recursive && fact.access === "read") || fact.access === "link" || fact.access === "hardlink";
  if (!whole || fact.path === undefined) return false;
  const dir = fact.path.endsWith("/") ? fact.path.slice(0, -1) : fact.path;
  const ci = roots.caseInsensitive;
  if (!isWithin(dir, roots.home, ci) || dir.length === roots.home.length) return false;
  return m.patterns.some(
    (p) =>
      p.anchor === "home" &&
      p.globs.some((g) => {
        if (!g.startsWith("~/") || /[*?[{]/.test(g)) return false;
        const abs = `${roots.home}/${g.slice(2)}`.replace(/\/$/, "");
        return isWithin(abs, dir, ci) && abs.length > dir.length && !globsMatch(m.except, abs, roots);
      }),
  );
}

const globsMatch = (globs: readonly CompiledGlob[], path: string, roots: GlobRoots): boolean =>
  globs.some((g) => matchPath(g, path, roots));

function describeFile(fact: FileFact): string {
  const where = fact.resolved === undefined ? "" : ` (which leads to ${quote(fact.resolved)})`;
  if (fact.access === "link" || fact.access === "hardlink")
    return `${fact.access === "link" ? "links" : "hard-links"} ${quote(fact.link ?? "a new name")} to ${quote(fact.raw)}${where}`;
  const verb = {
    read: "reads",
    write: "writes",
    delete: "deletes",
    chmod: "changes the mode of",
    chown: "changes the owner of",
    exec: "runs",
    use: "uses",
    list: "lists",
    share: "hands on",
  }[fact.access];
  return `${verb} ${quote(fact.raw)}${where}`;
}

/**
 * Names a name glob certainly matches, one per glob: `*`/`?` filled with `x`, a class with its
 * first member, the first brace alternative.
 */
function sampleNames(globs: readonly string[]): string[] {
  return globs.map((one) =>
    one
      .replace(/\{([^,}]*)[^}]*\}/g, "$1")
      .replace(/\[!?\^?([^\]])[^\]]*\]/g, "$1")
      .replace(/[*?]/g, "x"),
  );
}

/**
 * For a glob in a tool input (`Glob **\/.env*`, `Grep glob: .env*`): can its last segment name a
 * file that a name rule (`.env`, `*.pem`) covers? Conservative: yes when a sample name of either
 * pattern matches the other and that name is not an exception.
 */
function globReachesName(
  fact: FileFact,
  rule: CompiledGlob,
  except: readonly CompiledGlob[],
  roots: GlobRoots,
): boolean {
  if (rule.anchor !== "basename-anywhere" || fact.path === undefined) return false;
  const last = fact.path.slice(fact.path.lastIndexOf("/") + 1);
  // the shell's `*` skips dotfiles; a tool's glob is assumed to reach them
  const factGlob = compilePathGlob(last, { caseInsensitive: roots.caseInsensitive, dot: fact.basis === "tool" });
  const dir = fact.path.slice(0, fact.path.lastIndexOf("/"));
  // Both are single-segment name patterns here: test names against them directly. A glob that
  // starts with a wildcard (`*`, `*.json`) reaches any name, so only its own samples count; the
  // files it really expands to were added as facts by the expander (facts.ts).
  const literalStart = last.length > 0 && !["*", "?", "["].includes(last[0]!);
  const candidates = [
    ...(literalStart ? sampleNames(rule.globs).filter((n) => matchName(factGlob, n)) : []),
    ...sampleNames([last]).filter((n) => matchName(rule, n)),
  ];
  return candidates.some((n) => !globsMatch(except, `${dir}/${n}`, roots));
}

/**
 * A glob as written in a rule, as an absolute path glob (`/root/.claude/x/`), which `globsOverlap`
 * reads as relative to a project at `/`; undefined for a bare name.
 */
function absoluteGlob(written: string, anchor: CompiledGlob["anchor"], roots: GlobRoots): string | undefined {
  const under = (dir: string, rest: string): string => `${dir === "/" ? "" : dir}/${rest}`;
  switch (anchor) {
    case "basename-anywhere":
      return undefined;
    case "home":
      return under(roots.home, written.startsWith("~/") ? written.slice(2) : written);
    case "absolute":
      return written.startsWith("//") ? written.slice(1) : written;
    case "project":
      return under(roots.projectDir, written.startsWith("./") ? written.slice(2) : written.replace(/^\/+/, ""));
  }
}

/**
 * For a shell glob over directories read (`cat ~/.claude/lanes/pri*\/*\/o*.json`): can it name a path
 * in the rule's tree? Asked only of a glob with a wildcard in a directory name that the disk did
 * not expand (too many entries, a pure evaluation); its wildcards are taken to reach any name, dotfiles too (conservative).
 */
function globReachesTree(fact: FileFact, rule: CompiledGlob, roots: GlobRoots): boolean {
  if (fact.path === undefined || fact.access !== "read" || rule.anchor === "basename-anywhere") return false;
  const path = fact.path;
  // `**` reaches every tree: left to the rules on broad globs
  if (path.includes("**")) return false;
  // a wildcard in the last name only is the expander's and globReachesName's case
  const dir = path.slice(0, path.lastIndexOf("/"));
  if (!["*", "?", "["].some((c) => dir.includes(c))) return false;
  return rule.globs.some((written) => {
    const glob = absoluteGlob(written, rule.anchor, roots);
    return glob !== undefined && globsOverlap(path, glob);
  });
}

function matchPathRule(m: Extract<CompiledMatch, { kind: "path" }>, facts: Facts, roots: GlobRoots): Hit[] {
  const hits: Hit[] = [];
  for (const fact of facts.files) {
    if (fact.path === undefined || !accessCounts(m.access, fact)) continue;
    if (fact.tightens) continue;
    const literal = globsMatch(m.patterns, fact.path, roots) && !globsMatch(m.except, fact.path, roots);
    if (
      !literal &&
      !(fact.glob && m.patterns.some((p) => globReachesName(fact, p, m.except, roots))) &&
      !(
        fact.glob &&
        fact.expanded !== true &&
        fact.basis !== "tool" &&
        m.patterns.some((p) => globReachesTree(fact, p, roots))
      ) &&
      !treeHoldsSecret(fact, m, roots)
    )
      continue;
    hits.push({ subject: describeFile(fact), scope: fact.scope });
  }
  return hits;
}

/**
 * Deletes of paths in the rule's classes. A delete of a broad directory (root, home, project,
 * parent, broad glob) counts when recursive, forced or globbed; a system path, a home file and
 * anything in another user's home count always. A
 * filtered delete (`find <root> -name x -delete`) only removes what the filter selects: it counts
 * for system paths and for rules that ask for filtered deletes (`filtered: true`).
 */
function matchDelete(m: Extract<CompiledMatch, { kind: "delete" }>, facts: Facts): Hit[] {
  const hits: Hit[] = [];
  for (const fact of facts.files) {
    if (fact.access !== "delete") continue;
    const bulk = fact.recursive || fact.force || fact.glob;
    if (m.dynamic === true) {
      if (fact.path === undefined && bulk && !fact.filtered)
        hits.push({ subject: describeFile(fact), scope: fact.scope });
      continue;
    }
    if (fact.path === undefined) continue;
    const classes = m.targets.filter((c) => fact.classes.has(c));
    if (classes.length === 0) continue;
    // a file that one plain `rm` destroys (`~/.bashrc`), anything in another user's home: no flag needed
    const narrow = classes.some(
      (c) => c === "system" || c === "served" || c === "device" || c === "home-file" || c === "other-home",
    );
    if (m.filtered === true ? !fact.filtered : fact.filtered && !narrow) continue;
    if (!fact.filtered && !narrow && !bulk) continue;
    hits.push({ subject: describeFile(fact), scope: fact.scope });
  }
  return hits;
}

function matchFileEffect(m: Extract<CompiledMatch, { kind: "file-effect" }>, facts: Facts): Hit[] {
  return facts.files
    .filter(
      (f) =>
        // a dynamic path counts when its written start names a disk (`of=/dev/sd$X`)
        (f.path !== undefined || f.classes.has("device")) &&
        (m.shell !== true || f.basis !== "tool") &&
        (m.access as readonly string[]).includes(f.access) &&
        (m.recursive === undefined || m.recursive === f.recursive) &&
        (m.overwrite !== true || f.overwrite) &&
        m.targets.some((c) => f.classes.has(c)) &&
        // taking the group's and others' access away from the user's own files (not a system tree)
        !(f.tightens && !(["system", "root", "device"] as const).some((c) => f.classes.has(c))),
    )
    .map((f) => ({ subject: describeFile(f), scope: f.scope }));
}

function matchRemoteCode(m: Extract<CompiledMatch, { kind: "remote-code" }>, facts: Facts): Hit[] {
  const hits: Hit[] = [];
  const fetchers = m.fetchers.map((f) => f.toLowerCase());
  for (const exec of facts.code) {
    if (exec.source === "literal" || exec.source === "file") continue;
    // PowerShell names are case-insensitive (`Invoke-WebRequest`, `IWR`)
    const fetcher = exec.producers
      .map((i) => facts.commands[i]?.program)
      .find((p) => programMatches(p?.toLowerCase(), fetchers));
    if (fetcher === undefined) continue;
    const runner = facts.commands[exec.command];
    hits.push({
      subject: `${quote(fetcher)} output run by ${quote(exec.interpreter)}`,
      scope: runner?.scope ?? "call",
    });
  }
  return hits;
}

function matchForkBomb(facts: Facts): Hit[] {
  const functions = facts.functions
    .filter((f) => f.recursive && f.forks && f.called)
    .map((f) => ({ subject: `function ${quote(f.name)} that forks itself`, scope: "call" }));
  // interpreter code that starts processes in a loop without a bound (shell loops are the shell analysis' part)
  const code = facts.code
    .filter((c) => c.language !== "shell" && c.code !== undefined && spawnsWithoutBound(c.code))
    .map((c) => ({
      subject: `${quote(c.interpreter)} code that starts processes in an endless loop`,
      scope: facts.commands[c.command]?.scope ?? "call",
    }));
  // a shell loop without a bound that starts background jobs (`while true; do x & done`)
  const loops = (facts.shell?.loops ?? [])
    .filter((l) => l.unbounded && l.backgroundSpawn)
    .map((l) => ({ subject: `endless loop ${quote(l.text)} that starts background jobs`, scope: "call" as const }));
  return [...functions, ...code, ...loops];
}

/** True when command `index` runs code and all of it comes from one of `kinds` (`sh -c 'echo x'`). */
function codeOnlyFrom(index: number, kinds: readonly CodeExecution["source"][], facts: Facts): boolean {
  const code = (facts.shell?.code ?? []).filter((c) => c.command === index);
  return code.length > 0 && code.every((c) => kinds.includes(c.source));
}

/**
 * A command of a `from` program whose output reaches a command of a `to` program through pipes,
 * directly or through filters in between (`env | base64 | curl -d @- URL`).
 */
function matchPipe(m: Extract<CompiledMatch, { kind: "pipe" }>, facts: Facts, fold: boolean): Hit[] {
  const pipes = facts.shell?.pipes ?? [];
  const hits: Hit[] = [];
  for (const source of facts.commands) {
    if (!programMatches(source.program, m.from, fold)) continue;
    if (m.fromArgs !== undefined && matchArgs(m.fromArgs, argWords(source)) === -1) continue;
    if (m.fromCodeExcept !== undefined && codeOnlyFrom(source.index, m.fromCodeExcept, facts)) continue;
    const seen = new Set<number>([source.index]);
    const queue = [source.index];
    while (queue.length > 0) {
      const at = queue.shift()!;
      for (const pipe of pipes) {
        if (pipe.from !== at || seen.has(pipe.to)) continue;
        seen.add(pipe.to);
        queue.push(pipe.to);
        const sink = facts.commands[pipe.to];
        if (sink !== undefined && programMatches(sink.program, m.to, fold))
          hits.push({
            subject: `${quote(source.command.text)} piped into ${quote(sink.command.text)}`,
            scope: sink.scope,
          });
      }
    }
  }
  return hits;
}

/** True when the client works on a scratch database: none named (in memory), `:memory:`, a temp or test file. */
function onScratch(
  fact: CommandFact,
  scratch: NonNullable<Extract<CompiledMatch, { kind: "sql" }>["scratch"]>,
  ctx: PathContext,
): boolean {
  if (!programMatches(fact.program, scratch.clients, ctx.caseInsensitive)) return false;
  const database = fact.view.positionals[0];
  if (database === undefined) return true;
  if (database.value === undefined) return false;
  if (scratch.databases.some((d) => wildcard(d, database.value!))) return true;
  const path = normalizePath(database.value, { cwd: fact.command.cwd ?? ctx.cwd, home: ctx.home });
  return (
    scratch.databases.some((d) => wildcard(d, path)) ||
    ctx.tempDirs.some((t) => path.startsWith(`${t.replace(/\/+$/, "")}/`))
  );
}

function matchSql(m: Extract<CompiledMatch, { kind: "sql" }>, facts: Facts, ctx: PathContext): Hit[] {
  const hits: Hit[] = [];
  for (const fact of facts.commands) {
    if (!programMatches(fact.program, m.clients, ctx.caseInsensitive)) continue;
    if (m.scratch !== undefined && onScratch(fact, m.scratch, ctx)) continue;
    const texts = facts.shell === undefined ? [] : statementTexts(facts.shell, fact.index, m.after);
    const kinds = new Set(texts.flatMap(m.code === true ? classifyConsoleCode : classifySql));
    // `redis-cli --scan | xargs redis-cli del`: a client's listing of every key, deleted
    if (fact.command.runtimeArgs)
      for (const pipe of facts.shell?.pipes ?? []) {
        const producer = pipe.to === fact.index ? facts.commands[pipe.from] : undefined;
        if (producer === undefined || !programMatches(producer.program, m.clients, ctx.caseInsensitive)) continue;
        for (const k of classifyKeyDeletion(producer.argv.slice(1), fact.argv.slice(1))) kinds.add(k);
      }
    const found = m.statements.filter((k) => kinds.has(k));
    if (found.length > 0)
      hits.push({ subject: `${quote(fact.command.text)} (${found.join(", ")})`, scope: fact.scope });
  }
  if (m.after !== undefined || m.drivers === false) return hits;
  // statements in interpreter code that uses a database driver (`python -c "...execute('DROP TABLE x')"`)
  for (const exec of facts.code) {
    if (exec.language === "shell" || exec.code === undefined) continue;
    const kinds = new Set(classifyCode(exec.code));
    const found = m.statements.filter((k) => kinds.has(k));
    if (found.length > 0)
      hits.push({
        subject: `${quote(exec.interpreter)} code (${found.join(", ")})`,
        scope: facts.commands[exec.command]?.scope ?? "call",
      });
  }
  return hits;
}

/**
 * A variable named after the peer's service: its first word (`google` of `GOOGLE_API_KEY`, at
 * least three letters) is part of a label of the host (`maps.googleapis.com`).
 */
function ownService(name: string, host: string | undefined, generic: readonly string[]): boolean {
  const vendor = name.toLowerCase().split("_")[0] ?? "";
  if (vendor.length < 3 || generic.includes(vendor) || host === undefined) return false;
  return host.split(".").some((label) => label.includes(vendor));
}

/**
 * A network client sending a secret variable, the environment or a credential printer's output to a
 * peer that is not this machine; with `transcript`, a command printing them where the model reads
 * them (no peer, so none of the peer's exemptions applies).
 */
function matchSend(m: Extract<CompiledMatch, { kind: "send" }>, facts: Facts): Hit[] {
  const hits: Hit[] = [];
  for (const send of facts.sends) {
    const transcript = send.transcript === true;
    if (transcript !== (m.transcript === true)) continue;
    const client = facts.commands[send.command];
    if (client === undefined) continue;
    const shown = quote(client.command.text);
    let known: readonly NetworkPeer[] = [];
    if (!transcript) {
      const peers = send.peers.length === 0 ? [{ host: undefined, path: "" }] : send.peers;
      const remote = peers.filter((p) => p.host === undefined || !m.localHosts.some((h) => wildcard(h, p.host!)));
      if (remote.length === 0) continue;
      known = remote.filter((p) => p.host !== undefined);
    }
    if (m.shell === true && send.shell === true)
      hits.push({ subject: `${shown} ties a shell to a network socket`, scope: client.scope });
    if (m.uploads === true && send.files !== undefined && send.files.length > 0) {
      const peer = known.find((p) => !privateNetwork(p.host!) && !(m.trusted ?? []).some((h) => wildcard(h, p.host!)));
      if (peer !== undefined)
        hits.push({
          subject: `${shown} uploads ${quote(send.files.map((f) => f.value ?? f.text).join(" "))} to \`${peer.host!}\``,
          scope: client.scope,
        });
    }
    if (m.methods !== undefined && send.method !== undefined && m.methods.includes(send.method)) {
      const peer = known[0];
      if (peer !== undefined)
        hits.push({ subject: `${shown} sends \`${send.method}\` to \`${peer.host!}\``, scope: client.scope });
    }
    if (m.tokens !== undefined) {
      // (as request data a secret is net.secret-variable-exfiltration's, whatever the host)
      const misplaced = tokenElsewhere(m.tokens, send.credentials ?? [], known);
      if (misplaced !== undefined)
        hits.push({
          subject: `${shown} sends \`$${misplaced.name}\` to \`${misplaced.host}\`, not to its service`,
          scope: client.scope,
        });
    }
    if (m.env !== undefined) {
      const leaked = send.env.find(
        (name) =>
          m.env!.some((g) => wildcard(g, name.toLowerCase())) &&
          !(m.envExcept ?? []).some((g) => wildcard(g, name.toLowerCase())) &&
          // to a peer: not the peer's own key, nor a host only known at run time (the configured endpoint)
          (transcript ||
            !known.every(
              (p) =>
                ownService(name, p.host, m.generic ?? []) ||
                (m.signIn ?? []).some((s) => wildcard(s, p.path)) ||
                (p.query ?? []).some(
                  (q) => q.env.includes(name) && (m.keyParams ?? []).includes(q.param.toLowerCase()),
                ),
            )),
      );
      if (leaked !== undefined)
        hits.push({ subject: `${shown} ${transcript ? "prints" : "sends"} \`$${leaked}\``, scope: client.scope });
    }
    if (m.environment === true && send.environment)
      hits.push({
        subject: `${shown} ${transcript ? "prints the environment's secrets" : "sends the whole environment"}`,
        scope: client.scope,
      });
    if (m.from !== undefined) {
      const source = send.stdinFrom
        .map((i) => facts.commands[i])
        .find(
          (c) =>
            c !== undefined &&
            programMatches(c.program, m.from!) &&
            (m.fromArgs === undefined || matchArgs(m.fromArgs, argWords(c)) !== -1),
        );
      if (source !== undefined)
        hits.push({
          subject: transcript ? `${shown} prints a credential` : `${quote(source.command.text)} sent by ${shown}`,
          scope: client.scope,
        });
    }
  }
  return hits;
}

/**
 * A host of the private network: an RFC 1918 address (`10.0.0.5`, `192.168.1.20`, `172.16-31.x.x`)
 * or a name of one label (`deploy@build:`, resolved in the local search domain).
 */
function privateNetwork(host: string): boolean {
  if (!host.includes(".") && !host.includes(":")) return true;
  const octets = host.split(".");
  if (
    octets.length !== 4 ||
    !octets.every((o) => o.length > 0 && o.length <= 3 && [...o].every((c) => c >= "0" && c <= "9"))
  )
    return false;
  const [a, b] = octets.map(Number) as [number, number];
  return a === 10 || (a === 192 && b === 168) || (a === 172 && b >= 16 && b <= 31);
}

/**
 * The first well-known token (`tokens`: variable name wildcards to the hosts of its service) sent
 * to a known peer outside its service, with that peer's host; `undefined` when there is none.
 */
function tokenElsewhere(
  tokens: Readonly<Record<string, readonly string[]>>,
  names: readonly string[],
  peers: readonly NetworkPeer[],
): { name: string; host: string } | undefined {
  for (const name of names) {
    const lower = name.toLowerCase();
    const hosts = Object.entries(tokens).flatMap(([glob, list]) => (wildcard(glob, lower) ? list : []));
    if (hosts.length === 0) continue;
    const peer = peers.find((p) => !hosts.some((h) => wildcard(h, p.host!)));
    if (peer !== undefined) return { name, host: peer.host! };
  }
  return undefined;
}

function matchUnrepresentable(facts: Facts): Hit[] {
  const hits: Hit[] = facts.unrepresentable.map((u) => ({ subject: `${u.message}: ${quote(u.text)}`, scope: "call" }));
  if (facts.budgetExceeded)
    hits.push({ subject: "the command is too large or too nested to analyse in time", scope: "call" });
  return hits;
}

/** Whether an agent run is of the kind a rule names (see `AgentRunKind`). */
function runIs(run: Facts["agents"][number], kind: AgentRunKind): boolean {
  const claude = run.client === "claude";
  switch (kind) {
    case "resume":
      return claude && run.resumes !== undefined;
    case "guard-off":
      return claude && run.action === "session" && run.guardOff.length > 0;
    case "agent-type":
      return claude && run.action === "session" && run.agent !== undefined;
    case "session":
      return (
        claude &&
        run.action === "session" &&
        run.guardOff.length === 0 &&
        run.agent === undefined &&
        run.resumes === undefined
      );
    case "foreign":
      return !claude && run.action === "session";
    case "configure":
      return run.action === "configure";
    default:
      return assertNever(kind, "agent run kind");
  }
}

function matchAgentRun(m: Extract<CompiledMatch, { kind: "agent-run" }>, facts: Facts): Hit[] {
  return facts.agents
    .filter((run) => runIs(run, m.runs))
    .map((run) => {
      const fact = facts.commands[run.command];
      const shown = fact === undefined ? "`the command`" : quote(fact.command.text);
      const detail =
        m.runs === "guard-off"
          ? `: ${run.guardOff.join("; ")}`
          : m.runs === "agent-type"
            ? ` as agent ${quote(run.agent ?? "*")}`
            : m.runs === "resume"
              ? ` (${quote(run.resumes ?? "")})`
              : m.runs === "configure"
                ? ` (${quote(`${run.client} ${run.configures ?? ""}`.trim())})`
                : "";
      return {
        subject: `${shown} starts ${run.client === "claude" ? "Claude Code" : quote(run.client)}${detail}`,
        scope: fact?.scope ?? "call",
      };
    });
}

function matchDeferred(m: Extract<CompiledMatch, { kind: "deferred-code" }>, facts: Facts): Hit[] {
  return facts.deferred
    .filter((d) => !d.harmless && m.kinds.includes(d.kind))
    .map((d) => ({
      subject: `${quote(d.value === undefined ? d.key : `${d.key}=${d.value}`)} names a program git runs ${d.kind === "git-config" ? "later" : "inside that command"}`,
      scope: facts.commands[d.command]?.scope ?? "call",
    }));
}

function matchGuardWrite(m: Extract<CompiledMatch, { kind: "guard-write" }>, facts: Facts): Hit[] {
  const hits: Hit[] = [];
  for (const fact of facts.files) {
    if (fact.path === undefined || !fact.classes.has(m.format)) continue;
    if (fact.access !== "write" && !(m.format === "claude-settings" && fact.access === "delete")) continue;
    const found = guardContent(m.format, fact);
    if (found !== undefined) hits.push({ subject: `${describeFile(fact)}: ${found}`, scope: fact.scope });
  }
  return hits;
}

function matchTools(m: Extract<CompiledMatch, { kind: "tools" }>, facts: Facts): Hit[] {
  return m.tools.some((g) => toolNames(facts.tool).some((name) => matchName(g, name)))
    ? [{ subject: `the ${quote(facts.tool)} tool`, scope: "call" }]
    : [];
}

/** Every hit of one match against the facts. */
export function hitsOf(m: CompiledMatch, facts: Facts, ctx: PathContext, roots: GlobRoots, seeThrough = true): Hit[] {
  switch (m.kind) {
    case "command":
      return matchCommand(m, facts, ctx, roots, seeThrough);
    case "path":
      return matchPathRule(m, facts, roots);
    case "tools":
      return matchTools(m, facts);
    case "delete":
      return matchDelete(m, facts);
    case "file-effect":
      return matchFileEffect(m, facts);
    case "remote-code":
      return matchRemoteCode(m, facts);
    case "fork-bomb":
      return matchForkBomb(facts);
    case "pipe":
      return matchPipe(m, facts, ctx.caseInsensitive);
    case "sql":
      return matchSql(m, facts, ctx);
    case "send":
      return matchSend(m, facts);
    case "unrepresentable":
      return matchUnrepresentable(facts);
    case "agent-run":
      return matchAgentRun(m, facts);
    case "deferred-code":
      return matchDeferred(m, facts);
    case "guard-write":
      return matchGuardWrite(m, facts);
    default:
      return assertNever(m, "rule kind");
  }
}

/**
 * The rules that can match these facts: a rule whose matcher could find nothing (a command rule
 * whose programs the call does not run, directly or through a runner such as `npx`, or whose
 * literal argument no command has; a file rule when the call touches no file; a remote-code rule
 * when no code is run) is left out before its matcher runs, and, read from a file, before it is
 * parsed (rule-index.ts). The matchers stay the one definition of a match: this only skips certain
 * misses, and most calls run a few programs while most rules name others.
 */
export function candidateRules(
  policy: Pick<CompiledPolicy, "rules" | "ruleIndex">,
  facts: Facts,
): readonly CompiledRule[] {
  const programs = new Set<string>();
  // every word an `args` pattern could meet, lowercased as `wordMatches` compares them
  const words = new Set<string>();
  for (const fact of facts.commands) {
    if (fact.program !== undefined) programs.add(fact.program);
    const run = fact.view.runs;
    if (run !== undefined) programs.add(run.program);
    for (const list of [fact.view.positionals, run?.positionals ?? []])
      for (const w of list) if (w.value !== undefined) words.add(w.value.toLowerCase());
  }
  // read from a file, the policy carries its index (policy-file.ts); in memory, it is built once per rule list
  const index = policy.ruleIndex ?? indexOf(policy.rules);
  const paths: string[] = [];
  const classes = new Set<string>();
  let everyPath = false;
  for (const file of facts.files) {
    // globbed names, trees read whole and links (to a tree holding a secret) meet path rules beyond
    // their literal path (`matchPathRule`, `treeHoldsSecret`)
    if (file.glob || (file.recursive && file.access === "read") || file.access === "link" || file.access === "hardlink")
      everyPath = true;
    if (file.path !== undefined) paths.push(file.path, file.path.toLowerCase());
    for (const c of file.classes) classes.add(c);
  }
  return indexedRules(index, {
    programs,
    words,
    files: facts.files.length > 0,
    paths,
    everyPath,
    classes,
    code: facts.code.length > 0,
    pipes: (facts.shell?.pipes.length ?? 0) > 0,
    sends: facts.sends.length > 0,
    agents: facts.agents.length > 0,
    deferred: facts.deferred.length > 0,
  }).map((at) => policy.rules[at]!);
}

const INDEXES = new WeakMap<readonly CompiledRule[], string>();

function indexOf(rules: readonly CompiledRule[]): string {
  let index = INDEXES.get(rules);
  if (index === undefined) INDEXES.set(rules, (index = buildRuleIndex(rules)));
  return index;
}

/**
 * A hit's subject with the file it comes from, when what matched was read from disk or is stored
 * by the call: the command's own file and line (`\`rm -rf ~\` (Makefile:12)`), else the file of
 * interpreter code the command runs (`deletes \`/home/dev\` (scripts/wipe.py)`).
 */
function withOrigin(hit: Hit, facts: Facts): string {
  if (!hit.scope.startsWith("cmd:")) return hit.subject;
  const end = hit.scope.indexOf(":", 4);
  const index = Number(hit.scope.slice(4, end < 0 ? undefined : end));
  const origin = facts.commands[index]?.command.origin;
  if (origin !== undefined)
    return `${hit.subject} (${origin.line > 0 ? `${origin.file}:${origin.line}` : origin.file})`;
  const file = facts.code.find((c) => c.command === index && c.source === "disk" && c.language !== "shell")?.path;
  return file === undefined ? hit.subject : `${hit.subject} (${file})`;
}

/** Matches of one rule, as precedence entries; `subagent`: the call comes from a subagent. */
export function matchRule(
  rule: CompiledRule,
  facts: Facts,
  ctx: PathContext,
  roots: GlobRoots,
  layer: Layer = rule.layer,
  subagent = false,
): Match[] {
  if (rule.only === "subagents" && !subagent) return [];
  return hitsOf(rule.match, facts, ctx, roots, rule.layer !== "builtin").map((hit) => ({
    ruleId: rule.id,
    layer,
    effect: subagent && rule.subagentEffect !== undefined ? rule.subagentEffect : rule.effect,
    why: rule.why,
    instead: rule.instead,
    subject: withOrigin(hit, facts),
    source: rule.source,
    scope: hit.scope,
  }));
}
