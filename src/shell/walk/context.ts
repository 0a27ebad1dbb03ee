/**
 * The walk's context types and the value environment threaded through the traversal: the
 * working directory, variables and arrays, positional parameters. A `State` flows along a list
 * (`a; b`, `a && b`); subshells, pipeline elements and child shells get a copy.
 */
import { posix } from "node:path";
import type { CommandNode, CompoundList } from "unbash";
import { syntheticWord, type Binding } from "../words.ts";
import type { ShellRedirect, ShellWord, Via } from "../types.ts";

/**
 * Shell state that flows along a list. `vars` holds what lanes knows of named parameters: a
 * binding, or `undefined` for "assigned a run-time value". A name absent from the map comes from
 * the environment and is unknown, except HOME and PWD, which start from the analysis options.
 */
export interface State {
  cwd: string | undefined;
  vars: Map<string, Binding | undefined>;
  /** `$0`, `$1`, ...: `sh -c STR a b`, `set -- a b`, a function call; `undefined` when unknown. */
  positional: (string | undefined)[] | undefined;
}

/** Where a command's stdin comes from when it sits in a pipeline. */
export interface Stdin {
  /** The top-level commands of the pipeline element right before. */
  readonly immediate: readonly number[];
  /** Every command upstream in the pipeline, including substitutions inside them. */
  readonly upstream: readonly number[];
}

/** A function defined in the command string. */
export interface FunctionInfo {
  readonly name: string;
  recursive: boolean;
  forks: boolean;
  called: boolean;
  /** The body, walked again at each call with the caller's state and arguments. */
  readonly body: CommandNode | CompoundList;
  /** The source text the body's positions refer to. */
  readonly source: string;
  /**
   * How many wrappers the shell that defined it runs under (`nohup sh -c 'f(){ ...; }; f'`: one): a
   * call with more (`nohup f`) execs a program of that name, which the function is not.
   */
  readonly wrapped: number;
  /** The file the function is written in, when it was read from disk (its commands are located there). */
  readonly origin?: Origin | undefined;
}

/** The walk context: immutable per branch, except `state` and `sink`, which are shared on purpose. */
export interface Ctx {
  readonly source: string;
  readonly via: readonly Via[];
  readonly wrappers: readonly string[];
  readonly depth: number;
  readonly state: State;
  /** Collects the indices of commands whose stdout goes where this context's stdout goes. */
  readonly sink: number[];
  readonly stdin: Stdin | undefined;
  readonly runtimeArgs: boolean;
  readonly searchRoots: readonly ShellWord[];
  /** The command whose listing of files `{}` stands for in a `… | while read f` loop's body. */
  readonly lister?: number | undefined;
  readonly launchedBy: number | undefined;
  /** Inside a pipeline element, a background job or a coproc (for fork-bomb detection). */
  readonly forking: boolean;
  /** Functions being walked (a call inside its own body is recursion, not walked again). */
  readonly frames: readonly FunctionInfo[];
  /** Aliases being expanded (an alias is not expanded inside its own expansion). */
  readonly aliasing: readonly string[];
  /** Redirections of enclosing compound commands (`{ a; b; } > out`). */
  readonly redirects: readonly ShellRedirect[];
  /**
   * Bind mounts of the container the commands run in (`docker run -v /:/host`): an argument under
   * a mount `target` names the host path under `source` (`undefined`: unknown host path).
   */
  readonly mounts?: readonly { readonly source: string | undefined; readonly target: string }[];
  /** Stdin redirections of enclosing commands: a heredoc on `{ ...; }` or on `bash -c '...'` feeds the commands inside. */
  readonly stdinRedirects: readonly StdinRedirect[];
  /**
   * The file the commands are written in, when their code was read from disk or is stored by the
   * call (see `ShellCommand.origin`). With `text`, `source` may be that file's text (from `line`
   * on), and a command's line is counted from its position; without, every command is on `line`.
   */
  readonly origin?: Origin;
  /** The files read from disk whose code is being walked, outermost first (a script that runs itself is judged once). */
  readonly running?: readonly string[];
}

/** Where the code being walked is written (see {@link Ctx.origin}). */
export interface Origin {
  readonly file: string;
  readonly line: number;
  /** The text whose first line is `line`; the walk counts lines in it while `source` is this text. */
  readonly text?: string;
}

/** A resolved argument with what produced it. */
export interface ArgWord {
  readonly word: ShellWord;
  /** Commands inside substitutions of this word. */
  readonly producers: readonly number[];
  /** The whole word is one command substitution (`"$(curl x)"`) or one process substitution (`<(curl x)`). */
  readonly substitution: "command" | "process" | undefined;
  /** The statically known output of a whole substitution (`<(echo x)` → `x\n`). */
  readonly output?: string | undefined;
  /** For `NAME=VALUE` arguments of declaration builtins (`export HOME=/x`). */
  readonly assignment?: { readonly name: string; readonly value: ShellWord; readonly binding: Binding | undefined };
}

/** What a simple command carries besides its argv. */
export interface Base {
  readonly assignments: readonly { readonly name: string; readonly value: ShellWord }[];
  readonly redirects: readonly ShellRedirect[];
  /** The stdin redirections, for heredoc and herestring code. */
  readonly stdinRedirects: readonly StdinRedirect[];
  readonly text: string;
}

/** A redirection that feeds stdin, with its resolved code source. */
export interface StdinRedirect {
  readonly kind: "heredoc" | "herestring" | "file";
  readonly word: ArgWord;
}

/** One command about to run: what a handler receives. */
export interface Invocation {
  readonly program: string;
  readonly words: readonly ArgWord[];
  readonly base: Base;
  readonly ctx: Ctx;
  /**
   * The state builtins change (`cd`, `export`, `read`): the shell's own, also where `ctx.state` is
   * a copy for this command only (`FOO=1 cd x`: the command sees FOO, the shell keeps the `cd`).
   */
  readonly shell: State;
}

export type Mutable<T> = { -readonly [K in keyof T]: T[K] };

export const plain = (word: ShellWord): ArgWord => ({ word, producers: [], substitution: undefined });
export const emptyBase = (text: string): Base => ({ assignments: [], redirects: [], stdinRedirects: [], text });

export function copyState(s: State): State {
  return { cwd: s.cwd, vars: new Map(s.vars), positional: s.positional === undefined ? undefined : [...s.positional] };
}

const sameBinding = (a: Binding | undefined, b: Binding | undefined): boolean =>
  a === b ||
  (a !== undefined &&
    b !== undefined &&
    a.set === b.set &&
    (!a.set ||
      !b.set ||
      (a.value === b.value &&
        (a.elements ?? []).length === (b.elements ?? []).length &&
        (a.elements ?? []).every((e, i) => e === (b.elements ?? [])[i]))));

export function sameState(a: State, b: State): boolean {
  if (a.cwd !== b.cwd || a.vars.size !== b.vars.size) return false;
  for (const [k, v] of a.vars) if (!b.vars.has(k) || !sameBinding(v, b.vars.get(k))) return false;
  const pa = a.positional;
  const pb = b.positional;
  return (
    pa === pb || (pa !== undefined && pb !== undefined && pa.length === pb.length && pa.every((v, i) => v === pb[i]))
  );
}

/** A state where nothing is known (after `popd` fails, on a remote host, under `chroot`). */
export function unknownState(): State {
  return {
    cwd: undefined,
    vars: new Map([
      ["HOME", undefined],
      ["PWD", undefined],
    ]),
    positional: undefined,
  };
}

/** Two possible states after a branch: what they agree on stays known. */
export function mergeStates(a: State, b: State): State {
  const vars = new Map<string, Binding | undefined>();
  for (const key of new Set([...a.vars.keys(), ...b.vars.keys()])) {
    const va = a.vars.get(key);
    vars.set(key, a.vars.has(key) && b.vars.has(key) && sameBinding(va, b.vars.get(key)) ? va : undefined);
  }
  const pa = a.positional;
  const pb = b.positional;
  const positional =
    pa !== undefined && pb !== undefined && pa.length === pb.length && pa.every((v, i) => v === pb[i]) ? pa : undefined;
  return { cwd: a.cwd === b.cwd ? a.cwd : undefined, vars, positional };
}

/** The known string value of a variable, `undefined` when unknown or unset. */
export function varValue(state: State, name: string): string | undefined {
  const b = state.vars.get(name);
  return b === undefined || !b.set ? undefined : b.value;
}

/** Assigns a variable (`NAME=value`, `export NAME=value`, `read NAME` with `undefined`). */
export function assign(state: State, name: string, binding: Binding | undefined): void {
  state.vars.set(name, binding);
}

export function withVia(ctx: Ctx, via: Via): readonly Via[] {
  return [...ctx.via, via];
}

/** Joins a directory and a path lexically; `undefined` when the directory is unknown. */
export function resolveDir(cwd: string | undefined, target: string): string | undefined {
  if (!target.startsWith("/") && cwd === undefined) return undefined;
  const path = posix.normalize(target.startsWith("/") ? target : posix.join(cwd as string, target));
  // `cd ../` is `cd ..`: no trailing slash but on `/`
  return path.length > 1 && path.endsWith("/") ? path.slice(0, -1) : path;
}

/** The program basename of a command word, or `undefined` when it is not statically known. */
export function programOf(word: ShellWord | undefined): string | undefined {
  if (word === undefined || word.value === undefined || word.glob) return undefined;
  const base = word.value.slice(word.value.lastIndexOf("/") + 1);
  return base.length === 0 ? undefined : base;
}

/** Words joined by `separator` (`eval a b`, `ssh host rm -rf /`): dynamic when any piece is. */
export function joinWords(words: readonly ArgWord[], separator = " "): ArgWord {
  const values = words.map((w) => w.word.value);
  const value = values.some((v) => v === undefined) ? undefined : values.join(separator);
  return {
    word: { text: words.map((w) => w.word.text).join(separator), value, glob: false },
    producers: words.flatMap((w) => w.producers),
    substitution: undefined,
  };
}

/** A literal argument made up by the analysis. */
export const synthetic = (value: string): ArgWord => plain(syntheticWord(value));

/**
 * The name of a `NAME=value` word (`env NAME=value cmd`), read from the value, or from the source
 * text when the value is only known at run time (`env PATH="$PATH" cmd`); else `undefined`.
 */
export function assignmentName(word: ShellWord): string | undefined {
  const v = word.value ?? word.text;
  const eq = v.indexOf("=");
  if (eq <= 0) return undefined;
  const name = v.slice(0, eq);
  return isName(name) ? name : undefined;
}

export function isName(name: string): boolean {
  return (
    name.length > 0 &&
    [...name].every(
      (c, i) => c === "_" || (c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || (i > 0 && c >= "0" && c <= "9"),
    )
  );
}

/**
 * `~user`: homes live next to the analysing user's (`/home/u` → `/home/other`, `/Users/u` →
 * `/Users/other`); `~root` is `/root`. Elsewhere the home of another user is unknown.
 */
export function userHome(user: string, home: string): string | undefined {
  if (user === "root") return "/root";
  const parent = posix.dirname(home);
  if (posix.basename(home) === user) return home;
  return parent === "/home" || parent === "/Users" ? `${parent}/${user}` : undefined;
}

/** `/home/u` or `/Users/u` → `u`; elsewhere the login name is unknown. */
export function loginName(home: string): string | undefined {
  const parent = posix.dirname(home);
  const name = posix.basename(home);
  return (parent === "/home" || parent === "/Users") && name.length > 0 ? name : undefined;
}

/** The context of the top level of a line (and of a handler under test). */
export function topCtx(source: string, state: State): Ctx {
  return {
    source,
    via: [],
    wrappers: [],
    depth: 0,
    state,
    sink: [],
    stdin: undefined,
    runtimeArgs: false,
    searchRoots: [],
    launchedBy: undefined,
    forking: false,
    frames: [],
    aliasing: [],
    redirects: [],
    stdinRedirects: [],
  };
}
