/**
 * Agent clients: a command that starts another Claude Code (by name, by its package's script, by
 * a package runner, by a copy or link of its binary, or through the Agent SDK from interpreter
 * code) or another vendor's agent CLI. The command is recorded as it is, and so is the agent run
 * (`AgentRun`): whether it runs a session, with lanes' hooks or without them and why, as which
 * agent type, continuing which session. Data in `tables/clients.ts`; the keys of settings that turn
 * the guard off in `src/host/settings-guard.ts`.
 */
import { posix } from "node:path";
import { guardOffIn, GUARD_ENV, envLeavesGuardOn } from "../../host/settings-guard.ts";
import { readInterpreter } from "../interpreter-input.ts";
import {
  CLAUDE_BYPASS_MODES,
  CLAUDE_GUARD_OFF_FLAGS,
  CLAUDE_INFO_FLAGS,
  CLAUDE_MARKETPLACE_READS,
  CLAUDE_NAMES,
  CLAUDE_OPTIONS,
  CLAUDE_PATH_MARKS,
  CLAUDE_RESUME_OPTIONS,
  CLAUDE_SUBCOMMANDS,
  CLAUDE_WIDENING_OPTIONS,
  CLAUDE_WIDER_MODES,
  FOREIGN_CLIENTS,
  LOCATORS,
  type ClientArity,
} from "../tables/clients.ts";
import type { AgentRun, ShellWord } from "../types.ts";
import type { ArgWord, Ctx, Invocation } from "../walk/context.ts";
import type { Slot, Walk } from "./contract.ts";
import { unclaimed } from "./unclaimed.ts";

/** The programs of the name row: Claude Code and the other vendors' agent CLIs. */
export const CLIENT_PROGRAMS: readonly string[] = ["claude", "claude.exe", ...Object.keys(FOREIGN_CLIENTS)];

/** Copies and links of a client made on the line (`cp "$(command -v claude)" ./helper`): absolute path → client. */
const COPIES: Slot<Map<string, string>> = { create: () => new Map() };

const absolute = (path: string, ctx: Ctx): string | undefined => {
  if (path.startsWith("/")) return posix.normalize(path);
  const cwd = ctx.state.cwd;
  return cwd === undefined ? undefined : posix.join(cwd, path);
};

/** A path of Claude Code's own files (its package, the native install, the SDK's binary). */
const claudePath = (path: string): boolean => {
  const abs = path.startsWith("/") ? path : `/${path}`;
  return CLAUDE_PATH_MARKS.some((mark) => abs.includes(mark));
};

/** The client a word names: a path into Claude Code's files, a client's name, or a locator's output (`$(which codex)`). */
function clientOfWord(w: Walk, word: ArgWord): string | undefined {
  const value = word.word.value;
  if (value !== undefined) {
    const base = posix.basename(value);
    if (claudePath(value) || base === "claude" || base === "claude.exe") return "claude";
    if (value.includes("/") && Object.hasOwn(FOREIGN_CLIENTS, base)) return base;
    return undefined;
  }
  for (const p of word.producers) {
    const located = w.command(p);
    if (located?.program === undefined || !LOCATORS.includes(located.program)) continue;
    for (const arg of located.args) {
      const name = arg.value === undefined ? undefined : posix.basename(arg.value);
      if (name === "claude" || name === "claude.exe" || (arg.value !== undefined && claudePath(arg.value)))
        return "claude";
      if (name !== undefined && Object.hasOwn(FOREIGN_CLIENTS, name)) return name;
    }
  }
  return undefined;
}

/** The client a program run by path is: a copy or link made on the line, or a link into Claude Code's files on disk. */
function clientRunByPath(w: Walk, inv: Invocation): string | undefined {
  const written = inv.words[0]?.word.value;
  if (written === undefined || !written.includes("/")) return undefined;
  const abs = absolute(written, inv.ctx);
  if (abs === undefined) return undefined;
  const copied = w.memo(COPIES).get(abs);
  if (copied !== undefined) return copied;
  if (claudePath(abs)) return "claude";
  const real = w.disk.realpath(abs);
  if (real !== undefined && real !== abs && (claudePath(real) || posix.basename(real) === "claude")) return "claude";
  return undefined;
}

/**
 * Whether a script path is Claude Code's: a launcher in its files, its binary's name wherever it is
 * (`node node_modules/.bin/claude`), or a link into its files on disk.
 */
function isClaudeScript(w: Walk, value: string, ctx: Invocation["ctx"]): boolean {
  const base = posix.basename(value);
  if (base === "claude" || (claudePath(value) && CLAUDE_NAMES.includes(base))) return true;
  const abs = absolute(value, ctx);
  const real = abs === undefined ? undefined : w.disk.realpath(abs);
  return real !== undefined && real !== abs && claudePath(real) && CLAUDE_NAMES.includes(posix.basename(real));
}

/** The script word of `node <script>` when it is Claude Code's (`node node_modules/@anthropic-ai/claude-code/cli-wrapper.cjs`). */
function claudeScript(w: Walk, inv: Invocation): number | undefined {
  const read = readInterpreter(
    inv.program,
    inv.words.slice(1).map((x) => x.word),
  );
  if (read === undefined || read.input.kind !== "script") return undefined;
  const script = inv.words[read.input.index + 1];
  if (script === undefined) return undefined;
  const value = script.word.value;
  const named = value !== undefined ? isClaudeScript(w, value, inv.ctx) : clientOfWord(w, script) === "claude";
  return named ? read.input.index + 2 : undefined;
}

/** The matcher of the registry's row for `node <Claude Code's script>` (before the interpreters' row). */
export function isClientScript(inv: Invocation, w: Walk): boolean {
  return claudeScript(w, inv) !== undefined;
}

/**
 * The matcher of the registry's row for a client run by path under another name: a copy or link of
 * a client made on the line, a link into Claude Code's files on disk.
 */
export function isClientSpelling(inv: Invocation, w: Walk): boolean {
  if (inv.words[0]?.word.value?.includes("/") !== true) return false;
  return clientRunByPath(w, inv) !== undefined;
}

/** `claude ...`, a foreign agent CLI, or a client under another spelling: records the command and the agent run. */
export function client(w: Walk, inv: Invocation): void {
  const host = w.emit(inv.words, inv.base, inv.ctx);
  const copy = clientRunByPath(w, inv);
  const script = copy !== undefined || CLIENT_PROGRAMS.includes(inv.program) ? undefined : claudeScript(w, inv);
  const name =
    copy ?? (script !== undefined ? "claude" : CLIENT_PROGRAMS.includes(inv.program) ? inv.program : undefined);
  if (name === undefined) return;
  const spelling: AgentRun["spelling"] =
    copy !== undefined && !CLIENT_PROGRAMS.includes(inv.program) ? "copy" : script !== undefined ? "script" : "name";
  const args = inv.words.slice(script ?? 1);
  const run =
    name === "claude" || name === "claude.exe"
      ? claudeRun(
          w,
          inv,
          args.map((a) => a.word),
          host,
          spelling,
        )
      : foreignRun(
          name,
          args.map((a) => a.word),
          host,
          spelling,
        );
  w.addAgentRun(run);
}

/** Options of Claude Code as seen: option → its values (empty for a flag), and the positionals. */
interface ClaudeArgs {
  readonly options: Map<string, ShellWord[]>;
  readonly positionals: ShellWord[];
}

const takesNext = (word: ShellWord | undefined): boolean =>
  word !== undefined && (word.value === undefined || !word.value.startsWith("-"));

function scanClaude(words: readonly ShellWord[]): ClaudeArgs {
  const options = new Map<string, ShellWord[]>();
  const positionals: ShellWord[] = [];
  const add = (name: string, values: ShellWord[]): void => {
    options.set(name, [...(options.get(name) ?? []), ...values]);
  };
  const arity = (name: string): ClientArity => (Object.hasOwn(CLAUDE_OPTIONS, name) ? CLAUDE_OPTIONS[name]! : 0);
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    const v = word.value;
    if (v === undefined || !v.startsWith("-") || v === "-") {
      positionals.push(word);
      continue;
    }
    if (v === "--") {
      positionals.push(...words.slice(i + 1));
      break;
    }
    let name = v;
    let attached: ShellWord | undefined;
    if (v.startsWith("--") && v.includes("=")) {
      name = v.slice(0, v.indexOf("="));
      attached = { text: word.text, value: v.slice(v.indexOf("=") + 1), glob: false };
    } else if (!v.startsWith("--") && v.length > 2) {
      // a cluster of short flags (`-pc`); a letter that takes a value takes the rest
      let j = 1;
      for (; j < v.length; j++) {
        const letter = `-${v[j]!}`;
        if (arity(letter) === 0) {
          add(letter, []);
          continue;
        }
        name = letter;
        if (j + 1 < v.length) attached = { text: word.text, value: v.slice(j + 1), glob: false };
        break;
      }
      if (j === v.length) continue;
    }
    const kind = arity(name);
    if (attached !== undefined) add(name, [attached]);
    else if (kind === 1) {
      const next = words[i + 1];
      add(name, next === undefined ? [] : [next]);
      if (next !== undefined) i++;
    } else if (kind === "optional") {
      if (takesNext(words[i + 1])) add(name, [words[++i]!]);
      else add(name, []);
    } else if (kind === "variadic") {
      const values: ShellWord[] = [];
      while (takesNext(words[i + 1])) values.push(words[++i]!);
      add(name, values);
    } else add(name, []);
  }
  return { options, positionals };
}

/** What a subcommand of Claude Code does (`mcp add` configures, `mcp list` shows). */
function subcommandAction(positionals: readonly ShellWord[]): AgentRun["action"] | undefined {
  const first = positionals[0]?.value;
  if (first === undefined || !Object.hasOwn(CLAUDE_SUBCOMMANDS, first)) return undefined;
  const rows = CLAUDE_SUBCOMMANDS[first]!;
  const second = positionals[1]?.value ?? "";
  if (second === "marketplace")
    return CLAUDE_MARKETPLACE_READS.includes(positionals[2]?.value ?? "") ? "other" : "configure";
  return Object.hasOwn(rows, second) ? rows[second]! : rows[""]!;
}

/** The text of a `--settings` value: inline JSON, or a file written on the line or on disk. */
function settingsText(w: Walk, word: ShellWord, ctx: Ctx): string | undefined {
  const v = word.value;
  if (v === undefined) return undefined;
  if (v.trimStart().startsWith("{")) return v;
  const abs = absolute(v, ctx);
  if (abs === undefined) return undefined;
  const written = w.writtenFile(abs, ctx);
  if (written !== undefined) return written.partial === true ? undefined : written.text;
  const real = w.disk.realpath(abs);
  const file = real === undefined ? undefined : w.disk.readText(real, 256 * 1024);
  return file === undefined || file.truncated ? undefined : file.text;
}

/** Why the settings given by `--settings` turn the guard off; one reason when they cannot be read. */
function settingsGuardOff(w: Walk, word: ShellWord, ctx: Ctx): string[] {
  const text = settingsText(w, word, ctx);
  let parsed: unknown;
  try {
    parsed = text === undefined ? undefined : JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  if (parsed === undefined) return [`\`--settings ${word.value ?? word.text}\` holds settings lanes cannot read`];
  const reasons = guardOffIn(parsed).map((c) => `\`--settings\` sets \`${c.key}\`: ${c.why}`);
  const permissions =
    typeof parsed === "object" && parsed !== null ? (parsed as Record<string, unknown>)["permissions"] : undefined;
  if (typeof permissions === "object" && permissions !== null) {
    const { allow, defaultMode } = permissions as Record<string, unknown>;
    if (Array.isArray(allow) && allow.length > 0)
      reasons.push("`--settings` allows tools without the permission prompts of this session");
    if (typeof defaultMode === "string" && CLAUDE_WIDER_MODES.includes(defaultMode))
      reasons.push(`\`--settings\` sets \`permissions.defaultMode\` to \`${defaultMode}\``);
  }
  return reasons;
}

/** The variables of the command that turn the guard off (`CLAUDE_CODE_SIMPLE=1 claude -p`, or assigned earlier on the line). */
function envGuardOff(inv: Invocation): string[] {
  const reasons: string[] = [];
  for (const [name, spec] of Object.entries(GUARD_ENV)) {
    if (spec.off !== true) continue;
    const given = inv.base.assignments.filter((a) => a.name === name).at(-1);
    let value: string | undefined;
    if (given !== undefined) value = given.value.value;
    else {
      if (!inv.ctx.state.vars.has(name)) continue;
      const binding = inv.ctx.state.vars.get(name);
      if (binding !== undefined && !binding.set) continue;
      value = binding?.value;
    }
    if (!envLeavesGuardOn(name, value)) reasons.push(spec.why);
  }
  return reasons;
}

function claudeRun(
  w: Walk,
  inv: Invocation,
  words: readonly ShellWord[],
  command: number,
  spelling: AgentRun["spelling"],
): AgentRun {
  const { options, positionals } = scanClaude(words);
  const base = { command, client: "claude", spelling } as const;
  if (CLAUDE_INFO_FLAGS.some((f) => options.has(f))) return { ...base, action: "other", guardOff: [] };
  const sub = subcommandAction(positionals);
  const resumeOption = CLAUDE_RESUME_OPTIONS.find((o) => options.has(o));
  const first = positionals[0]?.value;
  const resumes = resumeOption ?? (first === "attach" || first === "respawn" ? `claude ${first}` : undefined);
  if (sub !== undefined && sub !== "session")
    return sub === "configure"
      ? {
          ...base,
          action: "configure",
          guardOff: [],
          configures: positionals
            .slice(0, 2)
            .map((p) => p.value ?? p.text)
            .join(" "),
        }
      : { ...base, action: "other", guardOff: [] };
  const guardOff: string[] = [];
  for (const [flag, why] of Object.entries(CLAUDE_GUARD_OFF_FLAGS)) if (options.has(flag)) guardOff.push(why);
  for (const [option, why] of Object.entries(CLAUDE_WIDENING_OPTIONS)) if (options.has(option)) guardOff.push(why);
  for (const mode of options.get("--permission-mode") ?? []) {
    if (mode.value === undefined) guardOff.push("`--permission-mode` is only known at run time");
    else if (CLAUDE_BYPASS_MODES.includes(mode.value))
      guardOff.push(`\`--permission-mode ${mode.value}\` bypasses every permission check`);
    else if (CLAUDE_WIDER_MODES.includes(mode.value))
      guardOff.push(`\`--permission-mode ${mode.value}\` lets that session act where this one would ask the person`);
  }
  for (const sources of options.get("--setting-sources") ?? []) {
    const list = sources.value?.split(/[\s,]+/).filter((s) => s !== "");
    if (list === undefined) guardOff.push("`--setting-sources` is only known at run time");
    else if (!list.includes("project"))
      guardOff.push(`\`--setting-sources ${sources.value}\` leaves out the project settings, where lanes is wired`);
  }
  for (const settings of options.get("--settings") ?? []) guardOff.push(...settingsGuardOff(w, settings, inv.ctx));
  guardOff.push(...envGuardOff(inv));
  const agentWord = options.get("--agent")?.at(-1);
  const agent = options.has("--agents") ? "*" : agentWord === undefined ? undefined : (agentWord.value ?? "*");
  return {
    ...base,
    action: "session",
    guardOff,
    ...(agent !== undefined && { agent }),
    ...(resumes !== undefined && { resumes }),
  };
}

function foreignRun(
  name: string,
  words: readonly ShellWord[],
  command: number,
  spelling: AgentRun["spelling"],
): AgentRun {
  const spec = FOREIGN_CLIENTS[name]!;
  const base = { command, client: name, spelling, guardOff: [] } as const;
  const values = words.map((word) => word.value);
  const first = values.find((v) => v === undefined || !v.startsWith("-"));
  const prompted = values.some((v) => v !== undefined && spec.prompt.some((p) => v === p || v.startsWith(`${p}=`)));
  if (first !== undefined && spec.sessions.includes(first)) return { ...base, action: "session" };
  if (prompted) return { ...base, action: "session" };
  const quiet = values.some((v) => v !== undefined && spec.quiet.includes(v));
  if (quiet || spec.bare === false) return { ...base, action: "other" };
  return { ...base, action: "session" };
}

/** `cp`, `ln`, `install`: a copy or link of a client is remembered for the line, then the command is recorded as usual. */
export function copies(w: Walk, inv: Invocation): void {
  const operands: ArgWord[] = [];
  let target: ArgWord | undefined;
  let options = true;
  for (let i = 1; i < inv.words.length; i++) {
    const word = inv.words[i]!;
    const v = word.word.value;
    if (options && v === "--") {
      options = false;
      continue;
    }
    if (options && v !== undefined && v.startsWith("-") && v !== "-") {
      if (v === "-t" || v === "--target-directory") target = inv.words[++i];
      else if (v.startsWith("--target-directory=")) target = { ...word, word: { ...word.word, value: v.slice(19) } };
      else if (["-S", "--suffix", "-m", "--mode", "-o", "--owner", "-g", "--group"].includes(v)) i++;
      continue;
    }
    operands.push(word);
  }
  const dest = target ?? operands.at(-1);
  const sources = target === undefined ? operands.slice(0, -1) : operands;
  const dir = target !== undefined || sources.length > 1;
  const destPath = dest?.word.value === undefined ? undefined : absolute(dest.word.value, inv.ctx);
  for (const source of sources) {
    const name = clientOfWord(w, source);
    if (name === undefined || destPath === undefined) continue;
    const where =
      dir || destPath.endsWith("/") ? posix.join(destPath, posix.basename(source.word.value ?? name)) : destPath;
    w.memo(COPIES).set(where, name === "claude.exe" ? "claude" : name);
  }
  unclaimed(w, inv);
}
