/**
 * Step 2 of the evaluator: match compiled rules against facts. One generic function per match
 * kind; no rule is special-cased here (rule tables live in src/policy/rules/).
 */
import { compilePathGlob } from "../globs/compile.ts";
import type { CompiledGlob } from "../globs/types.ts";
import type { CompiledMatch, CompiledRule } from "./compiled.ts";
import type { PathClass } from "../schema/vocabulary.ts";
import { envValues, optionValues, runWhat, type CommandFact, type Facts, type FileFact } from "./facts.ts";
import { matchName, matchPath, type GlobRoots } from "../globs/match.ts";
import { classifyPath, type PathContext } from "./paths.ts";
import { assertNever } from "../host/assert-never.ts";
import { normalizePath } from "../host/paths.ts";
import { toolNames } from "../host/tools.ts";
import { spawnsWithoutBound } from "./spawn.ts";
import { classifyCode, classifySql } from "./sql.ts";
import { wildcard } from "../globs/wildcard.ts";
import type { Layer, Match } from "./types.ts";
import type { ShellWord } from "../shell/types.ts";

/** A rule-independent hit: what matched and where. */
interface Hit {
  readonly subject: string;
  readonly scope: string;
}

const hasAny = <T>(set: ReadonlySet<T>, items: readonly T[]): boolean => items.some((i) => set.has(i));

function programMatches(program: string | undefined, names: readonly string[]): boolean {
  if (program === undefined) return false;
  return names.some((name) => (name.endsWith("*") ? program.startsWith(name.slice(0, -1)) : program === name));
}

/** True when one of the option's values matches one of the wanted words (`*` matches any text). */
function valueMatches(
  values: readonly { readonly value: string | undefined }[] | undefined,
  wanted: readonly string[],
): boolean {
  if (values === undefined) return false;
  return values.some(({ value }) => value !== undefined && wanted.some((w) => wildcard(w, value)));
}

const quote = (text: string): string => `\`${text.length > 120 ? `${text.slice(0, 117)}...` : text}\``;

/** The classes of a command operand, resolved against the command's cwd. */
function operandClasses(
  value: string | undefined,
  glob: boolean,
  fact: CommandFact,
  ctx: PathContext,
): ReadonlySet<PathClass> {
  if (value === undefined) return new Set();
  const cwd = fact.command.cwd ?? ctx.cwd;
  return classifyPath(normalizePath(value, { cwd, home: ctx.home }), glob, { ...ctx, cwd });
}

/** One `args` entry against one word: `*` any word, `a|b` alternatives (a lone `*` among them is literal), `db:*` a wildcard; case-insensitive. */
function wordMatches(pattern: string, word: string | undefined): boolean {
  if (word === undefined) return false;
  if (pattern === "*") return true;
  const value = word.toLowerCase();
  return pattern
    .toLowerCase()
    .split("|")
    .some((alt) => (alt.length > 1 && alt.includes("*") ? wildcard(alt, value) : alt === value));
}

/** A word the args patterns see; `suspect` when it may be the value of the option before it. */
interface ArgWord {
  readonly value: string | undefined;
  readonly suspect: boolean;
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
  return wordMatches(args[a]!, word.value) ? matchArgs(args, words, a + 1, w + 1) : -1;
}

/**
 * Options that never take a value, across the CLIs the built-in rules name: an operand after one
 * of these is an operand, not the option's value.
 */
const BOOLEAN_OPTIONS = new Set([
  "-f",
  "--force",
  "-y",
  "--yes",
  "-q",
  "--quiet",
  "-v",
  "--verbose",
  "-a",
  "--all",
  "-A",
  "--all-namespaces",
  "-r",
  "-R",
  "--recursive",
  "-d",
  "--delete",
  "-D",
  "--now",
  "--wait",
  "--no-wait",
  "--force-with-lease",
  "--force-if-includes",
  "--mirror",
  "--prune",
  "--tags",
  "--atomic",
  "--no-verify",
  "-u",
  "--set-upstream",
  "--porcelain",
  "--purge",
  "--cascade",
  "--ignore-not-found",
  "--keep-history",
  "--skip-seed",
  "--noinput",
  "--no-input",
  "--seed",
  "--debug",
  "--json",
  "--insecure",
  "--async",
  "--sync",
  "-auto-approve",
  "--auto-approve",
  "--force-reset",
  "--accept-data-loss",
  "--volumes",
  "--remove-orphans",
  "-i",
  "--interactive",
  "-t",
  "--tty",
  "--rm",
  "-P",
  "--progress",
  "-h",
  "--help",
  "-x",
  "--hard",
  "--soft",
  "--mixed",
  "--merge",
  "--keep",
  "-m",
  "--quick",
  "-s",
  "-S",
  "-Force",
  "-Recurse",
  "--nodeps",
  "-e",
  "--erase",
  "--purge",
  "--force-remove-essential",
  "--force-all",
  "-Rdd",
  "-Rns",
  "-Rs",
  "-Rn",
  "-p",
  "--paginate",
  "--bare",
  "--literal-pathspecs",
  "--glob-pathspecs",
  "--icase-pathspecs",
  "--version",
  "--tls",
  "--global",
  "--system",
  "--local",
  "--replace-all",
  "-B",
  "--batch-mode",
  "-ntp",
  "--no-transfer-progress",
  "--tlsverify",
  "--ours",
  "--theirs",
  "--no-overlay",
  "--discard-changes",
  "--worktree",
  "--staged",
  "--ignore-unmatch",
]);

const isNumber = (text: string): boolean => text.length > 0 && [...text].every((c) => c >= "0" && c <= "9");
/** `-KILL`, `-SIGTERM`: a signal name given as an option, which takes no value. */
const isSignal = (text: string): boolean => text.length > 1 && [...text].every((c) => c >= "A" && c <= "Z");

/** The positionals of a command, each marked suspect when it follows an option not known to be boolean. */
function argWords(fact: CommandFact): ArgWord[] {
  const args = fact.command.args;
  const positionals = fact.view.positionals;
  return positionals.map((word) => {
    const i = args.indexOf(word);
    const previous = i > 0 ? args[i - 1] : undefined;
    const text = previous?.value;
    const option =
      text !== undefined &&
      text.length > 1 &&
      text.startsWith("-") &&
      text !== "--" &&
      !text.includes("=") &&
      !isNumber(text.slice(1)) &&
      !isSignal(text.slice(1));
    // `--no-x` negations never take a value; an option the table gave a value took another word
    const boolean = option && (BOOLEAN_OPTIONS.has(text) || text.startsWith("--no-") || fact.view.values.has(text));
    return { value: word.value, suspect: option && !boolean && !positionals.includes(previous!) };
  });
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
    const direct = programMatches(fact.program, m.program);
    const run = direct || !seeThrough ? undefined : runWhat(fact);
    if (!direct && !(run !== undefined && programMatches(run.program, m.program))) continue;
    const args = m.args ?? [];
    let positionals = run === undefined ? fact.view.positionals : run.positionals;
    const words = run === undefined ? argWords(fact) : run.positionals.map((w) => ({ value: w.value, suspect: false }));
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
      !operands.some((w) => hasAny(operandClasses(w.value, w.glob, fact, ctx), m.targets!))
    )
      continue;
    if (m.operands !== undefined) {
      const cwd = fact.command.cwd ?? ctx.cwd;
      const matched = operands.some(
        (w) =>
          w.value !== undefined &&
          m.operands!.some((g) => matchPath(g, normalizePath(w.value!, { cwd, home: ctx.home }), roots)),
      );
      if (!matched) continue;
    }
    hits.push({ subject: quote(fact.command.text), scope: fact.scope });
  }
  return hits;
}

/** Whether a file access counts for a path rule's access mode. */
function accessCounts(
  mode: "zero-access" | "read-only" | "no-delete" | "secret" | "no-write",
  fact: FileFact,
): boolean {
  // a mode or owner change shows no content: loosening a key's mode is a rule of its own (perm.secret-loosen)
  if (mode === "zero-access") return fact.access !== "chmod" && fact.access !== "chown";
  // a secret: reading or deleting it counts, and so does a file tool's write (Edit reads the file
  // first, Write replaces it); a shell write or load (`>> .env`, `source .env`) shows nothing
  if (mode === "secret")
    return fact.access === "read" || fact.access === "delete" || (fact.access === "write" && fact.basis === "tool");
  if (mode === "no-write") return fact.access === "write" || fact.access === "delete";
  if (mode === "read-only") return fact.access !== "read" && fact.access !== "exec";
  return fact.access === "delete";
}

/**
 * A recursive read of a directory below the home directory that holds a file a home-anchored
 * pattern names (`scp -r ~/.aws host:` takes `~/.aws/credentials` along). The home directory itself
 * is left alone (copying a whole home is a backup), and deleting such a tree is the delete rules' job.
 */
function treeHoldsSecret(fact: FileFact, m: Extract<CompiledMatch, { kind: "path" }>, roots: GlobRoots): boolean {
  if (!fact.recursive || fact.access !== "read" || fact.path === undefined) return false;
  const dir = fact.path.endsWith("/") ? fact.path.slice(0, -1) : fact.path;
  if (!dir.startsWith(`${roots.home}/`)) return false;
  return m.patterns.some(
    (p) =>
      p.anchor === "home" &&
      p.globs.some((g) => {
        if (!g.startsWith("~/") || /[*?[{]/.test(g)) return false;
        const abs = `${roots.home}/${g.slice(2)}`.replace(/\/$/, "");
        return abs.startsWith(`${dir}/`) && !globsMatch(m.except, abs, roots);
      }),
  );
}

const globsMatch = (globs: readonly CompiledGlob[], path: string, roots: GlobRoots): boolean =>
  globs.some((g) => matchPath(g, path, roots));

function describeFile(fact: FileFact): string {
  const verb = {
    read: "reads",
    write: "writes",
    delete: "deletes",
    chmod: "changes the mode of",
    chown: "changes the owner of",
    exec: "runs",
  }[fact.access];
  return `${verb} ${quote(fact.raw)}`;
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

function matchPathRule(m: Extract<CompiledMatch, { kind: "path" }>, facts: Facts, roots: GlobRoots): Hit[] {
  const hits: Hit[] = [];
  for (const fact of facts.files) {
    if (fact.path === undefined || !accessCounts(m.access, fact)) continue;
    const literal = globsMatch(m.patterns, fact.path, roots) && !globsMatch(m.except, fact.path, roots);
    if (
      !literal &&
      !(fact.glob && m.patterns.some((p) => globReachesName(fact, p, m.except, roots))) &&
      !treeHoldsSecret(fact, m, roots)
    )
      continue;
    hits.push({ subject: describeFile(fact), scope: fact.scope });
  }
  return hits;
}

/**
 * Deletes of paths in the rule's classes. A delete of a broad directory (root, home, project,
 * parent, broad glob) counts when recursive, forced or globbed; a system path counts always. A
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
    const narrow = classes.some((c) => c === "system" || c === "device");
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
        f.path !== undefined &&
        (m.shell !== true || f.basis !== "tool") &&
        (m.access as readonly string[]).includes(f.access) &&
        (m.recursive === undefined || m.recursive === f.recursive) &&
        m.targets.some((c) => f.classes.has(c)),
    )
    .map((f) => ({ subject: describeFile(f), scope: f.scope }));
}

function matchRemoteCode(m: Extract<CompiledMatch, { kind: "remote-code" }>, facts: Facts): Hit[] {
  const hits: Hit[] = [];
  for (const exec of facts.code) {
    if (exec.source === "literal" || exec.source === "file") continue;
    const fetcher = exec.producers.map((i) => facts.commands[i]?.program).find((p) => programMatches(p, m.fetchers));
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

/**
 * A command of a `from` program whose output reaches a command of a `to` program through pipes,
 * directly or through filters in between (`env | base64 | curl -d @- URL`).
 */
function matchPipe(m: Extract<CompiledMatch, { kind: "pipe" }>, facts: Facts): Hit[] {
  const pipes = facts.shell?.pipes ?? [];
  const hits: Hit[] = [];
  for (const source of facts.commands) {
    if (!programMatches(source.program, m.from)) continue;
    const seen = new Set<number>([source.index]);
    const queue = [source.index];
    while (queue.length > 0) {
      const at = queue.shift()!;
      for (const pipe of pipes) {
        if (pipe.from !== at || seen.has(pipe.to)) continue;
        seen.add(pipe.to);
        queue.push(pipe.to);
        const sink = facts.commands[pipe.to];
        if (sink !== undefined && programMatches(sink.program, m.to))
          hits.push({
            subject: `${quote(source.command.text)} piped into ${quote(sink.command.text)}`,
            scope: sink.scope,
          });
      }
    }
  }
  return hits;
}

/** Options whose value is statement text, across clients (`psql -c`, `mysql -e`, `sqlcmd -Q`, `clickhouse-client --query`, `mongosh --eval`). */
const SQL_TEXT_OPTIONS = ["-c", "--command", "-e", "--execute", "--eval", "-q", "-Q", "--query", "--sql"];

/**
 * SQL text a client command receives: statement options, stdin bodies, static text piped in, and
 * its operands (a client with no option table leaves `-e "DROP ..."` as an operand; `sqlite3 db
 * "DROP ..."` and `redis-cli FLUSHALL` take statements as operands).
 */
function sqlTexts(fact: CommandFact, facts: Facts): string[] {
  const texts: string[] = [];
  for (const key of SQL_TEXT_OPTIONS) {
    for (const word of fact.view.values.get(key) ?? []) if (word.value !== undefined) texts.push(word.value);
  }
  texts.push(...(facts.stdinText.get(fact.index) ?? []));
  for (const pipe of facts.shell?.pipes ?? []) {
    if (pipe.to !== fact.index) continue;
    const producer = facts.commands[pipe.from];
    if (producer !== undefined && (producer.program === "echo" || producer.program === "printf"))
      texts.push(producer.argv.slice(1).join(" "));
  }
  const operands = fact.view.positionals.map((w) => w.value ?? "");
  texts.push(...operands, operands.join(" "));
  return texts;
}

function matchSql(m: Extract<CompiledMatch, { kind: "sql" }>, facts: Facts): Hit[] {
  const hits: Hit[] = [];
  for (const fact of facts.commands) {
    if (!programMatches(fact.program, m.clients)) continue;
    const kinds = new Set(sqlTexts(fact, facts).flatMap(classifySql));
    const found = m.statements.filter((k) => kinds.has(k));
    if (found.length > 0)
      hits.push({ subject: `${quote(fact.command.text)} (${found.join(", ")})`, scope: fact.scope });
  }
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

function matchUnrepresentable(facts: Facts): Hit[] {
  const hits: Hit[] = facts.unrepresentable.map((u) => ({ subject: `${u.message}: ${quote(u.text)}`, scope: "call" }));
  if (facts.budgetExceeded)
    hits.push({ subject: "the command is too large or too nested to analyse in time", scope: "call" });
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
      return matchPipe(m, facts);
    case "sql":
      return matchSql(m, facts);
    case "unrepresentable":
      return matchUnrepresentable(facts);
    default:
      return assertNever(m, "rule kind");
  }
}

/**
 * The rules that can match these facts: a rule whose matcher could find nothing (a command rule
 * whose programs the call does not run, directly or through a runner such as `npx`; a file rule
 * when the call touches no file; a remote-code rule when no code is run) is left out before its
 * matcher runs. The matchers stay the one definition of a match: this only skips certain misses,
 * and most calls run a few programs while most rules name others.
 */
export function candidateRules(rules: readonly CompiledRule[], facts: Facts): readonly CompiledRule[] {
  const programs = new Set<string>();
  for (const fact of facts.commands) {
    if (fact.program !== undefined) programs.add(fact.program);
    const run = runWhat(fact).program;
    if (run !== undefined) programs.add(run);
  }
  const named = (names: readonly string[]) =>
    names.some((name) =>
      name.endsWith("*") ? [...programs].some((p) => p.startsWith(name.slice(0, -1))) : programs.has(name),
    );
  return rules.filter((rule) => {
    const m = rule.match;
    switch (m.kind) {
      case "command":
        return named(m.program);
      case "path":
      case "delete":
      case "file-effect":
        return facts.files.length > 0;
      case "remote-code":
        return facts.code.length > 0;
      case "pipe":
        return (facts.shell?.pipes.length ?? 0) > 0;
      case "tools":
      case "fork-bomb":
      case "sql":
      case "unrepresentable":
        return true;
      default:
        return assertNever(m, "rule kind");
    }
  });
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
  return hitsOf(rule.match, facts, ctx, roots, rule.layer !== "builtin").map((hit) => ({
    ruleId: rule.id,
    layer,
    effect: subagent && rule.subagentEffect !== undefined ? rule.subagentEffect : rule.effect,
    why: rule.why,
    instead: rule.instead,
    subject: hit.subject,
    source: rule.source,
    scope: hit.scope,
  }));
}
