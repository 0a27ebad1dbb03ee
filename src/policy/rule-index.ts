/**
 * The rule index: which rules a call can meet, found without reading the rules. Built from the
 * rules when the policy is compiled and kept in the compiled file (compiled.ts
 * `serializeCompiledPolicy`), so a hook parses only the rules it picks (policy-file.ts), and
 * picking them allocates next to nothing: the index is one string, searched by key.
 *
 * One line per key, `\n<key>\t<entry>,<entry>...`, an entry being a rule's position, and for a
 * command rule with a literal word in `args` (`git reset`) `<position>:<alternative>|...`, the
 * lowercased alternatives one of which some command's words must be:
 *
 * | key              | rules                                                               |
 * |------------------|---------------------------------------------------------------------|
 * | `p:<program>`    | command rules naming the program (lowercased), SQL rules naming the client |
 * | `w:<prefix>`     | the same for names ending in `*` (`mkfs.*`), by prefix             |
 * | `h:<hint>`       | path rules one of whose globs holds this literal piece (`.ssh`)     |
 * | `k:paths`        | every path rule indexed by hints (for globbed and tree-wide facts)  |
 * | `c:<class>`      | delete and file-effect rules naming this path class (`system`)      |
 * | `k:files`        | dynamic delete rules, path rules with a glob without hints          |
 * | `k:code`         | remote-code rules, and SQL rules interpreter code can reach          |
 * | `k:pipe`         | pipe rules                                                          |
 * | `k:sends`        | send rules (a network client in the call)                           |
 * | `k:agents`       | agent-run rules (the call starts another agent)                     |
 * | `k:deferred`     | deferred-code rules (the call parks a program in git's configuration) |
 * | `k:always`       | every other rule, and any rule a key cannot name exactly             |
 *
 * A path rule matches a file's path only through its globs, and a glob only matches a path that
 * holds one of its literal pieces (its `hints`, globs/compile.ts `hintOf`): a call whose paths hold
 * none of a rule's hints cannot meet the rule by path. A globbed path (`rm *.pem`) and a
 * recursive read of a tree can meet a path rule in other ways (match.ts `globReachesName`,
 * `treeHoldsSecret`), so such a call takes every path rule (`k:paths`).
 *
 * A delete or file-effect rule matches only a file of one of its classes (`targets`): a call whose
 * files are of none of them cannot meet it (a delete rule of files whose path is unknown,
 * `dynamic`, stays a candidate for every call that touches a file).
 *
 * The matchers stay the one definition of a match (match.ts): the index only leaves out rules that
 * cannot match, which test/policy/candidates.test.ts checks over the whole case corpus.
 */
import { assertNever } from "../host/assert-never.ts";
import type { CompiledRule } from "./compiled.ts";

/** Characters no key or word may hold: they delimit the index. */
const DELIMITERS = ["\n", "\t", ",", ":", "|"];
const plain = (text: string): boolean => !DELIMITERS.some((d) => text.includes(d));

export function buildRuleIndex(rules: readonly CompiledRule[]): string {
  const lines = new Map<string, string[]>();
  const add = (key: string, entry: string): void => {
    const list = lines.get(key);
    if (list === undefined) lines.set(key, [entry]);
    else list.push(entry);
  };
  const byName = (names: readonly string[], entry: string, at: number): void => {
    // a name the index cannot hold makes the rule a candidate for every call
    if (!names.every(plain)) return add("k:always", String(at));
    // keyed lowercased: on a file system that ignores case a program is matched in any case
    for (const given of names) {
      const name = given.toLowerCase();
      add(name.endsWith("*") ? `w:${name.slice(0, -1)}` : `p:${name}`, entry);
    }
  };
  rules.forEach((rule, at) => {
    const m = rule.match;
    switch (m.kind) {
      case "command": {
        const word = (m.args ?? [])
          .map((arg) => arg.toLowerCase().split("|"))
          .find((alts) => alts.every((alt) => alt !== "" && !alt.includes("*") && !alt.includes("\\") && plain(alt)));
        return byName(m.program, word === undefined ? String(at) : `${at}:${word.join("|")}`, at);
      }
      case "sql":
        if (m.after === undefined && m.drivers !== false) add("k:code", String(at));
        return byName(m.clients, String(at), at);
      case "path": {
        // a glob without hints (`**`) can match any path: the rule is a candidate for every file
        const hints = m.patterns.every((g) => g.hints !== undefined && g.hints.every((h) => h !== "" && plain(h)))
          ? new Set(m.patterns.flatMap((g) => g.hints!))
          : undefined;
        if (hints === undefined) return add("k:files", String(at));
        add("k:paths", String(at));
        for (const hint of hints) add(`h:${hint}`, String(at));
        return;
      }
      case "delete":
      case "file-effect":
        if ((m.kind === "delete" && m.dynamic === true) || !m.targets.every(plain)) return add("k:files", String(at));
        for (const target of new Set<string>(m.targets)) add(`c:${target}`, String(at));
        return;
      case "remote-code":
        return add("k:code", String(at));
      case "pipe":
        return add("k:pipe", String(at));
      case "send":
        return add("k:sends", String(at));
      case "agent-run":
        return add("k:agents", String(at));
      case "deferred-code":
        return add("k:deferred", String(at));
      case "guard-write":
        return add(`c:${m.format}`, String(at));
      case "tools":
      case "fork-bomb":
      case "unrepresentable":
        return add("k:always", String(at));
      default:
        return assertNever(m, "rule kind");
    }
  });
  return `${[...lines].map(([key, entries]) => `\n${key}\t${entries.join(",")}`).join("")}\n`;
}

/** What of a call the index is searched by. */
export interface IndexQuery {
  /** Programs the call runs (and what package runners run). */
  readonly programs: ReadonlySet<string>;
  /** Every word an `args` pattern could meet, lowercased. */
  readonly words: ReadonlySet<string>;
  readonly files: boolean;
  /**
   * The paths of the files the call touches, as written and lowercased (hints of case-insensitive
   * globs are lowercased).
   */
  readonly paths: readonly string[];
  /** A file is a glob, or a tree read whole: every path rule is a candidate. */
  readonly everyPath: boolean;
  /** The classes of the files the call touches (`system`, `home-file`...). */
  readonly classes: ReadonlySet<string>;
  readonly code: boolean;
  readonly pipes: boolean;
  /** The call runs a network client (shell/sends.ts). */
  readonly sends: boolean;
  /** The call starts another agent (a nested client). */
  readonly agents: boolean;
  /** The call parks a program in git's configuration. */
  readonly deferred: boolean;
}

/** Positions of the rules the call can meet, in rule order. */
export function indexedRules(index: string, query: IndexQuery): number[] {
  const picked = new Set<number>();
  const take = (value: string | undefined): void => {
    if (value === undefined) return;
    for (const entry of value.split(",")) {
      const colon = entry.indexOf(":");
      if (colon === -1) picked.add(Number(entry));
      else if (
        entry
          .slice(colon + 1)
          .split("|")
          .some((w) => query.words.has(w))
      )
        picked.add(Number(entry.slice(0, colon)));
    }
  };
  const line = (key: string): string | undefined => {
    const at = index.indexOf(`\n${key}\t`);
    return at === -1 ? undefined : index.slice(at + key.length + 2, index.indexOf("\n", at + 1));
  };
  const programs = [...query.programs].map((p) => p.toLowerCase());
  for (const program of programs) if (plain(program)) take(line(`p:${program}`));
  for (let at = index.indexOf("\nw:"); at !== -1; at = index.indexOf("\nw:", at + 1)) {
    const tab = index.indexOf("\t", at);
    const prefix = index.slice(at + 3, tab);
    for (const program of programs)
      if (program.startsWith(prefix)) {
        take(index.slice(tab + 1, index.indexOf("\n", tab)));
        break;
      }
  }
  if (query.files) {
    take(line("k:files"));
    for (const c of query.classes) if (plain(c)) take(line(`c:${c}`));
    if (query.everyPath) take(line("k:paths"));
    else
      for (let at = index.indexOf("\nh:"); at !== -1; at = index.indexOf("\nh:", at + 1)) {
        const tab = index.indexOf("\t", at);
        const hint = index.slice(at + 3, tab);
        if (query.paths.some((path) => path.includes(hint))) take(index.slice(tab + 1, index.indexOf("\n", tab)));
      }
  }
  if (query.code) take(line("k:code"));
  if (query.pipes) take(line("k:pipe"));
  if (query.sends) take(line("k:sends"));
  if (query.agents) take(line("k:agents"));
  if (query.deferred) take(line("k:deferred"));
  take(line("k:always"));
  return [...picked].sort((a, b) => a - b);
}
