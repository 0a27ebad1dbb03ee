/**
 * Git configuration that names a program (`src/host/git-programs.ts`): set by `git config` (and
 * `git clone -c`), for one command by `git -c`, `--config-env` or the `GIT_CONFIG_COUNT` /
 * `GIT_CONFIG_KEY_<n>` / `GIT_CONFIG_VALUE_<n>` and `GIT_CONFIG_PARAMETERS` variables. Each is
 * recorded as deferred code (`DeferredCode`: harmless when the value only names a pager, an editor
 * or git's own helper, `tables/git-programs.ts`), and a value that is a command is also walked as
 * the shell string git would run, so what it does is judged too.
 */
import { posix } from "node:path";
import { GIT_PROGRAM_VARIABLES, gitProgramKey, runsNothing, type GitProgramKey } from "../../host/git-programs.ts";
import { detailedView } from "../detailed-view.ts";
import {
  HARMLESS_CREDENTIAL_HELPERS,
  HARMLESS_PROGRAMS,
  PLAIN_VALUE_CHARACTERS,
  SSH_COMMAND_OPTIONS,
  SSH_VALUE_OPTIONS,
} from "../tables/git-programs.ts";
import type { DeferredCode } from "../types.ts";
import { synthetic, type Invocation } from "../walk/context.ts";
import { hostCtx, shellString } from "./code.ts";
import type { Walk } from "./contract.ts";

const plainValue = (value: string): boolean => [...value].every((c) => PLAIN_VALUE_CHARACTERS.includes(c));

/** `ssh` given only options that run no command (`ssh -i key -o StrictHostKeyChecking=no`). */
function harmlessSsh(words: readonly string[]): boolean {
  for (let i = 1; i < words.length; i++) {
    const word = words[i]!;
    if (!word.startsWith("-")) return false;
    const option = word.slice(0, 2);
    const value = word.length > 2 ? word.slice(2) : SSH_VALUE_OPTIONS.includes(option) ? words[++i] : undefined;
    if (option === "-o" && SSH_COMMAND_OPTIONS.some((o) => (value ?? "").toLowerCase().startsWith(o))) return false;
  }
  return true;
}

/**
 * Whether a program key's value parks no code: it runs nothing (`runsNothing`), or it is plain
 * words naming a harmless program with options that row allows (`less -R`, `code --wait`,
 * `git-lfs clean -- %f`, `ssh -i ~/.ssh/deploy`), or a credential helper git documents (`cache
 * --timeout=3600`, `store`).
 */
export function harmlessGitValue(entry: GitProgramKey, value: string): boolean {
  if (runsNothing(entry, value)) return true;
  // the repository's own hooks directory, where git looks anyway
  if (entry.kind === "hooks-dir") return [".git/hooks", ".git/hooks/"].includes(value.trim());
  if (entry.kind === "config-file" || entry.kind === "switch") return false;
  let text = value.trim();
  if (entry.kind === "bang") text = text.slice(1);
  if (entry.kind === "helper" && !text.startsWith("!") && !text.startsWith("/")) {
    const [name, ...rest] = text.split(" ").filter((w) => w !== "");
    return (
      name !== undefined &&
      HARMLESS_CREDENTIAL_HELPERS.includes(name) &&
      plainValue(text) &&
      rest.every((w) => w.startsWith("-"))
    );
  }
  if (entry.kind === "helper" && text.startsWith("!")) text = text.slice(1);
  if (!plainValue(text)) return false;
  const words = text.split(" ").filter((w) => w !== "");
  const program = words[0] === undefined ? undefined : posix.basename(words[0]);
  if (program === undefined) return true;
  if (program === "ssh") return harmlessSsh(words);
  const row = Object.hasOwn(HARMLESS_PROGRAMS, program) ? HARMLESS_PROGRAMS[program] : undefined;
  if (row === undefined) return false;
  return words
    .slice(1)
    .every((w) =>
      w.startsWith("-") ? row.options === "any" || row.options.includes(w.split("=")[0]!) : row.operands === true,
    );
}

/** Values git reads for keys the values of `GIT_CONFIG_PARAMETERS` (`'core.pager'='less' 'x.y'`): single-quoted words. */
function configParameters(text: string): [string, string | undefined][] {
  const out: [string, string | undefined][] = [];
  let i = 0;
  const quoted = (): string | undefined => {
    if (text[i] !== "'") return undefined;
    const end = text.indexOf("'", i + 1);
    if (end < 0) return undefined;
    const word = text.slice(i + 1, end);
    i = end + 1;
    return word;
  };
  while (i < text.length) {
    while (text[i] === " ") i++;
    if (i >= text.length) break;
    const key = quoted();
    if (key === undefined) return [];
    if (text[i] === "=") {
      i++;
      const value = quoted();
      if (value === undefined) return [];
      out.push([key, value]);
    } else {
      const eq = key.indexOf("=");
      out.push(eq < 0 ? [key, "true"] : [key.slice(0, eq), key.slice(eq + 1)]);
    }
  }
  return out;
}

/** A variable given to this git command: its prefix assignment, else its value assigned earlier on the line. */
function variable(inv: Invocation, name: string): { value: string | undefined } | undefined {
  const given = inv.base.assignments.filter((a) => a.name === name).at(-1);
  if (given !== undefined) return { value: given.value.value };
  if (!inv.ctx.state.vars.has(name)) return undefined;
  const binding = inv.ctx.state.vars.get(name);
  if (binding !== undefined && !binding.set) return undefined;
  return { value: binding?.value };
}

/** Configuration given to this git command through variables (`GIT_CONFIG_COUNT`, `GIT_CONFIG_PARAMETERS`, `GIT_PAGER`, ...). */
export function configFromEnvironment(inv: Invocation): [string, string | undefined][] {
  const out: [string, string | undefined][] = [];
  const count = variable(inv, "GIT_CONFIG_COUNT");
  if (count !== undefined) {
    const n = count.value === undefined ? Number.NaN : Number(count.value);
    // a count only known at run time: each key and value given on the line counts
    const limit = Number.isInteger(n) && n >= 0 ? Math.min(n, 64) : 64;
    for (let i = 0; i < limit; i++) {
      const key = variable(inv, `GIT_CONFIG_KEY_${i}`);
      if (key === undefined) continue;
      out.push([key.value ?? "*", variable(inv, `GIT_CONFIG_VALUE_${i}`)?.value]);
    }
  }
  // `GIT_PAGER=...`, `GIT_SSH_COMMAND=...`: kept by the variable's name, judged by the key it stands for
  for (const name of GIT_PROGRAM_VARIABLES.keys()) {
    const given = variable(inv, name);
    if (given !== undefined) out.push([name, given.value]);
  }
  const parameters = variable(inv, "GIT_CONFIG_PARAMETERS");
  if (parameters !== undefined)
    out.push(
      ...(parameters.value === undefined
        ? [["*", undefined] as [string, undefined]]
        : configParameters(parameters.value)),
    );
  return out;
}

/** Options of `git config` that only read or remove. */
const CONFIG_READS = [
  "--get",
  "--get-all",
  "--get-regexp",
  "--get-urlmatch",
  "-l",
  "--list",
  "--unset",
  "--unset-all",
  "--remove-section",
  "--rename-section",
  "--get-color",
  "--get-colorbool",
  "-e",
  "--edit",
  "--blob",
];

/** The new-style subcommands of `git config` (2.46) that set a value. */
const CONFIG_SETTERS = ["set"];
const CONFIG_OTHERS = ["get", "list", "unset", "rename-section", "remove-section", "edit"];

/** What `git config ...` sets: `[key, value]` pairs (`git config core.pager less`, `git config set --append k v`). */
export function configWrites(inv: Invocation): [string, string | undefined][] {
  const view = detailedView(
    "git",
    inv.words.slice(1).map((x) => x.word),
  );
  const positionals = view.operands.map((o) => o.word);
  const sub = positionals[0]?.value;
  if (sub === "clone" || sub === "init") {
    // `git clone -c core.fsmonitor=... URL` writes the key into the new repository; `--template` names hooks to copy
    const sets: [string, string | undefined][] = [];
    const words = inv.words.map((w) => w.word);
    for (let i = 0; i < words.length; i++) {
      const v = words[i]!.value;
      if (v === undefined) continue;
      const pair =
        (v === "-c" || v === "--config") && i + 1 < words.length
          ? words[i + 1]!.value
          : v.startsWith("--config=")
            ? v.slice(9)
            : undefined;
      if (pair !== undefined && pair.includes("="))
        sets.push([pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1)]);
      if (v === "--template" && i + 1 < words.length) sets.push(["init.templateDir", words[i + 1]!.value]);
      if (v.startsWith("--template=")) sets.push(["init.templateDir", v.slice(11)]);
    }
    return sets;
  }
  if (sub !== "config") return [];
  let rest = positionals.slice(1);
  if (rest[0]?.value !== undefined && CONFIG_OTHERS.includes(rest[0].value)) return [];
  if (rest[0]?.value !== undefined && CONFIG_SETTERS.includes(rest[0].value)) rest = rest.slice(1);
  else if (CONFIG_READS.some((f) => view.flags.has(f))) return [];
  const [key, value] = rest;
  if (key === undefined || value === undefined) return [];
  return [[key.value ?? "*", value.value]];
}

/**
 * Records each program key the command sets or is given (deferred code) and walks a command value
 * as the shell string git would run. `configured` are the pairs found for this command (`git
 * config` writes, then `-c` and variables).
 */
export function gitProgramConfig(
  w: Walk,
  inv: Invocation,
  host: number,
  configured: readonly {
    readonly key: string;
    readonly value: string | undefined;
    readonly kind: DeferredCode["kind"];
  }[],
): void {
  for (const { key, value, kind } of configured) {
    // a key only known at run time may be any key
    const entry = key === "*" ? { key: "*", kind: "command" as const, off: undefined } : gitProgramKey(key);
    if (entry === undefined) continue;
    if (value !== undefined && runsNothing(entry, value)) continue;
    const harmless = value !== undefined && entry.key !== "*" && harmlessGitValue(entry, value);
    w.addDeferred({ command: host, kind, key, value, harmless });
    // what the value runs is judged too, harmless or not (`core.sshCommand='ssh -i k'` runs ssh); a
    // variable's command is walked where the program's environment is (tables/embedded.ts)
    if (value === undefined || !(entry.kind === "command" || entry.kind === "bang" || entry.kind === "helper"))
      continue;
    if (GIT_PROGRAM_VARIABLES.has(key)) continue;
    const code = entry.kind === "command" ? value : value.startsWith("!") ? value.slice(1) : undefined;
    if (code === undefined || code.trim() === "") continue;
    shellString(w, {
      word: synthetic(code),
      interpreter: "git",
      host,
      base: inv.base,
      ctx: hostCtx(inv.ctx, { host }),
      via: "shell-string",
    });
  }
}
