/**
 * Wrappers and `env`: programs that run another command given in their arguments (`sudo`,
 * `env -i`, `timeout`, `nice`, `busybox`, `su -c`, `script -c`, `watch`, `ssh host cmd`). Generic
 * over the entries of `tables/wrappers.ts`: each wrapper is removed and recorded in
 * `ShellCommand.wrappers`, so the wrapped argv is exact.
 */
import { parse } from "unbash";
import { optionsOf, scanOptions } from "../option-scanner.ts";
import { resolveWord } from "../words.ts";
import { PACKAGE_BINARIES, type RunnerGlobals, type WrapperSpec } from "../tables/wrappers.ts";
import type { ShellWord, Via } from "../types.ts";
import {
  copyState,
  assignmentName,
  joinWords,
  plain,
  resolveDir,
  synthetic,
  unknownState,
  userHome,
  loginName,
  withVia,
  type ArgWord,
  type Base,
  type Ctx,
  type Invocation,
} from "../walk/context.ts";
import type { Walk } from "./contract.ts";
import { hostCtx, shellString, stdinCode } from "./code.ts";
import { embedded } from "./git.ts";
import { asPlaceholder, parallel, replaceToken, xargsInput, xargsReplace } from "./xargs.ts";

/** The wrapped command, or `undefined` when the wrapper was handled here. */
export type Unwrapped = { readonly words: readonly ArgWord[]; readonly ctx: Ctx; readonly base: Base } | undefined;

/**
 * A package runner's command (`npx aws-cdk@2 destroy`): the package's binary without the version
 * (`cdk destroy`). A scoped name keeps its scope until mapped (`@aws-amplify/cli` → `amplify`).
 */
function packageCommand(given: readonly ArgWord[]): readonly ArgWord[] {
  // `npm exec pkg -- --flag`: the runner's option parser takes the `--`, the binary gets `--flag`
  // (were it the binary's, only more of its words would be read as flags)
  const rest = given[1]?.word.value === "--" ? [given[0]!, ...given.slice(2)] : given;
  const first = rest[0];
  const value = first?.word.value;
  if (first === undefined || value === undefined || first.word.glob) return rest;
  const at = value.lastIndexOf("@");
  const name = at > 0 ? value.slice(0, at) : value;
  // an unlisted scoped package runs as its last segment (`@biomejs/biome`), or its scope for `@x/cli`
  const scoped = name.startsWith("@") && name.includes("/") ? name.slice(name.indexOf("/") + 1) : undefined;
  const binary = Object.hasOwn(PACKAGE_BINARIES, name)
    ? (PACKAGE_BINARIES[name] as string)
    : scoped === undefined
      ? name
      : scoped === "cli"
        ? name.slice(1, name.indexOf("/"))
        : scoped;
  if (binary === value) return rest;
  return [{ ...first, word: { ...first.word, value: binary } }, ...rest.slice(1)];
}

/** The wrapper runs `word` as a shell string (`su -c STR`, `watch 'cmd'`, `doppler run --command STR`). */
function runsShellString(w: Walk, inv: Invocation, word: ArgWord): undefined {
  const host = w.emit(inv.words, inv.base, inv.ctx);
  shellString(w, {
    word,
    interpreter: inv.program,
    host,
    base: inv.base,
    ctx: hostCtx(inv.ctx, { wrapper: inv.program, host }),
    via: "shell-string",
  });
  return undefined;
}

/**
 * Removes one wrapper (a row of `tables/wrappers.ts`): returns the command it runs, for the walk
 * to run in turn, or `undefined` when the wrapper was recorded here (what it runs too).
 */
export function unwrap(w: Walk, inv: Invocation, spec: WrapperSpec): Unwrapped {
  const { program, words, base, ctx } = inv;
  const plainWords = words.map((x) => x.word);
  const wrapped = (rest: readonly ArgWord[], extra: Partial<Ctx> = {}, via: Via = "wrapper"): Unwrapped => ({
    words: spec.packages === true ? packageCommand(rest) : rest,
    ctx: { ...ctx, wrappers: [...ctx.wrappers, program], via: withVia(ctx, via), ...extra },
    base,
  });
  switch (spec.kind) {
    case "exec":
    case "xargs": {
      // `env - cmd` is `env -i cmd`
      const dashIgnore = program === "env" && words[1]?.word.value === "-";
      const scan = scanOptions(
        dashIgnore ? [plainWords[0] as ShellWord, ...plainWords.slice(2)] : plainWords,
        spec.grammar,
        firstOption(spec),
      );
      const next = scan.next + (dashIgnore ? 1 : 0);
      const options = optionsOf(scan);
      if (spec.noRun?.some((o) => options.has(o)) === true) {
        w.emit(words, base, ctx);
        return undefined;
      }
      // `doppler run --command 'cmd'`: an option whose value is a shell string
      const string = spec.shellString?.flatMap((o) => options.get(o) ?? []).at(-1);
      if (string !== undefined) {
        return runsShellString(w, inv, plain(string));
      }
      let rest: ArgWord[] = words.slice(next);
      // `aws-vault exec prod --duration=1h -- cmd`: the command is what follows the wrapper's `--`
      const dashes =
        spec.afterDoubleDash === true && !scan.events.some((e) => e.kind === "double-dash")
          ? rest.findIndex((x) => x.word.value === "--")
          : -1;
      if (dashes >= 0) rest = rest.slice(dashes + 1);
      const split = spec.splitString?.flatMap((o) => options.get(o) ?? []).at(-1);
      if (split !== undefined) {
        const splitWords = splitString(w, split, base.text, ctx);
        if (splitWords === undefined) {
          w.emit(words, base, ctx);
          return undefined;
        }
        rest = [...splitWords, ...rest];
      }
      let assignments = base.assignments;
      if (spec.assignments === true) {
        for (
          let name = rest[0] === undefined ? undefined : assignmentName(rest[0].word);
          rest[0] !== undefined && name !== undefined;
        ) {
          const v = rest[0].word.value;
          assignments = [
            ...assignments,
            {
              name,
              value: { text: rest[0].word.text, value: v?.slice(v.indexOf("=") + 1), glob: false },
            },
          ];
          rest = rest.slice(1);
          name = rest[0] === undefined ? undefined : assignmentName(rest[0].word);
        }
      }
      if (dashes < 0) rest = rest.slice(spec.operands ?? 0);
      // `aws-vault exec prod -- aws ...`: `--` after the operands ends the wrapper's arguments
      if (rest[0]?.word.value === "--") rest = rest.slice(1);
      if (rest.length === 0) {
        if (spec.defaultCommand === undefined) {
          const host = w.emit(words, base, ctx);
          if (
            spec.stdinShell === true &&
            (spec.shellOptions === undefined || spec.shellOptions.some((o) => options.has(o)))
          ) {
            stdinCode(w, {
              language: "shell",
              interpreter: program,
              host,
              base,
              hostCtx: hostCtx(ctx, { wrapper: program, host, base }),
              ctx,
            });
          }
          return undefined;
        }
        rest = [synthetic(spec.defaultCommand)];
      }
      const inShell = program === "command" || program === "builtin";
      const state = inShell ? ctx.state : copyState(ctx.state);
      const chdir = spec.chdir?.flatMap((o) => options.get(o) ?? []).at(-1);
      if (chdir !== undefined) {
        const dir = chdir.value === undefined || chdir.glob ? undefined : resolveDir(state.cwd, chdir.value);
        state.cwd = dir;
        state.vars.set("PWD", dir === undefined ? undefined : { set: true, value: dir });
      }
      if (spec.newRoot === true) Object.assign(state, unknownState());
      for (const a of assignments)
        state.vars.set(a.name, a.value.value === undefined ? undefined : { set: true, value: a.value.value });
      if (spec.kind === "xargs") {
        // `printf '/a\n/b\n' | xargs -I{} rm -rf {}`: one command per input line
        const commands = xargsReplace(w, { command: rest, words, options, base, ctx });
        if (commands !== undefined) {
          const inner: Ctx = { ...ctx, state, wrappers: [...ctx.wrappers, program], via: withVia(ctx, "xargs") };
          for (const command of commands)
            w.execute(command, { ...base, assignments }, { ...inner, state: copyState(state) });
          return undefined;
        }
        // static input (`printf '%s\n' /srv | xargs rm -r`) becomes the arguments
        const input = xargsInput(w, { words, options, base, ctx });
        const token = input?.searchRoots === undefined ? undefined : replaceToken(options);
        const fed =
          input === undefined
            ? undefined
            : wrapped(
                [...(token === undefined ? rest : asPlaceholder(rest, token)), ...input.words],
                {
                  state,
                  runtimeArgs: ctx.runtimeArgs || input.runtime,
                  ...(input.searchRoots !== undefined && { searchRoots: input.searchRoots }),
                },
                "xargs",
              );
        if (fed !== undefined) return { ...fed, base: { ...base, assignments } };
      }
      const unwrapped = wrapped(
        rest,
        { state, runtimeArgs: ctx.runtimeArgs || spec.kind === "xargs" },
        spec.kind === "xargs" ? "xargs" : "wrapper",
      );
      return unwrapped === undefined ? undefined : { ...unwrapped, base: { ...base, assignments } };
    }
    case "multicall": {
      const applet = words[1];
      if (applet === undefined || applet.word.value?.startsWith("-") === true) {
        w.emit(words, base, ctx);
        return undefined;
      }
      return wrapped(words.slice(1));
    }
    case "shell-option":
      return shellOptionWrapper(w, inv, spec, wrapped);
    case "remote": {
      const scan = scanOptions(plainWords, spec.grammar, firstOption(spec));
      let rest = words.slice(scan.next + (spec.operands ?? 0));
      if (rest[0]?.word.value === "--") rest = rest.slice(1);
      const host = w.emit(words, base, ctx);
      embedded(w, inv, host);
      const remote = hostCtx(ctx, { wrapper: program, host, remote: true, base, home: remoteHome(w, inv, scan) });
      // without a command the remote login shell reads its commands from stdin
      if (rest.length === 0)
        stdinCode(w, { language: "shell", interpreter: program, host, base, hostCtx: remote, ctx });
      else
        shellString(w, { word: joinWords(rest), interpreter: program, host, base, ctx: remote, via: "shell-string" });
      return undefined;
    }
    case "watch": {
      const scan = scanOptions(plainWords, spec.grammar, firstOption(spec));
      const options = optionsOf(scan);
      const rest = words.slice(scan.next);
      if (rest.length === 0) {
        w.emit(words, base, ctx);
        return undefined;
      }
      if (spec.execOptions?.some((o) => options.has(o)) === true) return wrapped(rest, { state: copyState(ctx.state) });
      return runsShellString(w, inv, joinWords(rest));
    }
    case "parallel":
      parallel(w, inv, spec);
      return undefined;
    default: {
      const unknown: never = spec.kind;
      w.report("unknown-node", base.text, String(unknown));
      w.emit(words, base, ctx);
      return undefined;
    }
  }
}

/**
 * The home directory on the other end of `ssh [-l USER] [USER@]HOST`: the user's home, laid out
 * as homes are here (ssh logs in with the local login name unless told otherwise).
 */
function remoteHome(w: Walk, inv: Invocation, scan: ReturnType<typeof scanOptions>): string | undefined {
  const destination = inv.words[scan.next]?.word.value;
  const login = optionsOf(scan).get("-l")?.at(-1)?.value;
  const at = destination?.indexOf("@") ?? -1;
  const named = login ?? (destination !== undefined && at > 0 ? destination.slice(0, at) : undefined);
  const user = named ?? loginName(w.options.home);
  return user === undefined ? undefined : userHome(user, w.options.home);
}

/**
 * A package runner whose own options come before its subcommand (`npm -w api exec rm -rf dist`,
 * `pnpm -C web exec ...`, `yarn workspace web exec ...`): the runner with those options taken out
 * (`npm exec rm -rf dist`), run in the directory they choose, for the walk to unwrap; `undefined`
 * when what follows them is not a subcommand that runs a command, or an option is not known.
 */
export function runnerOptions(inv: Invocation, spec: WrapperSpec): Unwrapped {
  const globals = spec.globals;
  if (globals === undefined || spec.subcommands === undefined) return undefined;
  const { words, ctx, base } = inv;
  const plainWords = words.map((x) => x.word);
  let cwd = ctx.state.cwd;
  let at = 1;
  for (let guard = 0; guard < 4 && at < words.length; guard++) {
    const scan = known(scanOptions(plainWords, globals.grammar, at), globals.grammar);
    if (scan === undefined) return undefined;
    for (const e of scan.events) {
      if (e.kind !== "option") continue;
      if (globals.chdir?.includes(e.name) === true) cwd = pathOf(cwd, e.values[0]);
      else if (globals.workspace?.includes(e.name) === true) cwd = workspaceDir(cwd, e.values[0]);
    }
    at = scan.next;
    const word = words[at]?.word.value ?? "";
    if (globals.workspaceWords?.includes(word) === true) {
      cwd = workspaceDir(cwd, words[at + 1]?.word);
      at += 2;
      continue;
    }
    const each = globals.eachWords?.some(([a, b]) => a === word && words[at + 1]?.word.value === b) === true;
    if (!each || globals.eachGrammar === undefined) break;
    const eachScan = known(scanOptions(plainWords, globals.eachGrammar, at + 2), globals.eachGrammar);
    if (eachScan === undefined) return undefined;
    at = eachScan.next;
  }
  if (at <= 1 || !spec.subcommands.includes(words[at]?.word.value ?? "")) return undefined;
  const state = copyState(ctx.state);
  state.cwd = cwd;
  state.vars.set("PWD", cwd === undefined ? undefined : { set: true, value: cwd });
  return { words: [words[0] as ArgWord, ...words.slice(at)], ctx: { ...ctx, state }, base };
}

/** The scan when every option it found is one the grammar knows (and no `--` came first). */
function known(scan: ReturnType<typeof scanOptions>, grammar: RunnerGlobals["grammar"]): typeof scan | undefined {
  const unknown = scan.events.some(
    (e) => e.kind === "double-dash" || (e.kind === "option" && !Object.hasOwn(grammar.options, e.name)),
  );
  return unknown ? undefined : scan;
}

/** A directory option's value resolved in `cwd`; `undefined` when it is only known at run time. */
function pathOf(cwd: string | undefined, word: ShellWord | undefined): string | undefined {
  return word?.value === undefined || word.glob ? undefined : resolveDir(cwd, word.value);
}

/**
 * The directory of a workspace selected by name or path (`-w api`, `--filter ./packages/web`): a
 * path is resolved, a name is taken as a directory of that name here (inside the project, which is
 * what matters); a selector of several (`--filter '@acme/*'`, `web...`) leaves the directory as is.
 */
function workspaceDir(cwd: string | undefined, word: ShellWord | undefined): string | undefined {
  const value = word?.value;
  if (value === undefined || word?.glob === true) return undefined;
  const selector = [...value].some((c) => "*?{}[]!^".includes(c)) || value.includes("...");
  return selector ? cwd : resolveDir(cwd, value);
}

/** Where a wrapper's options start: after its subcommand (`pnpm exec -c ...`) when it has one. */
const firstOption = (spec: WrapperSpec): number => (spec.subcommands === undefined ? 1 : 2);

function shellOptionWrapper(
  w: Walk,
  inv: Invocation,
  spec: WrapperSpec,
  wrapped: (rest: readonly ArgWord[], extra?: Partial<Ctx>) => Unwrapped,
): Unwrapped {
  const { program, words, base, ctx } = inv;
  const plainWords = words.map((x) => x.word);
  const scan = scanOptions(plainWords, spec.grammar, firstOption(spec));
  const argOf = (x: ShellWord): ArgWord => words[plainWords.indexOf(x)] ?? plain(x);
  let string: ArgWord | undefined;
  for (const e of scan.events)
    if (e.kind === "option" && spec.shellString?.includes(e.name) === true && e.values[0] !== undefined)
      string = argOf(e.values[0]);
  let command: readonly ArgWord[] = [];
  if (string === undefined && spec.grammar.permute === false) {
    // `flock [opts] FILE -c STR` or `flock [opts] FILE cmd args...`
    const after = scan.next + (spec.operands ?? 0);
    const option = words[after]?.word.value;
    if (option !== undefined && spec.shellString?.includes(option) === true) string = words[after + 1];
    else command = words.slice(after);
  } else if (string === undefined && program === "runuser" && optionsOf(scan).has("-u")) {
    command = words.slice(scanOptions(plainWords, { ...spec.grammar, permute: false }, 1).next);
  }
  if (string !== undefined) return runsShellString(w, inv, string);
  if (command.length > 0) return wrapped(command, { state: copyState(ctx.state) });
  const host = w.emit(words, base, ctx);
  // `echo 'rm -rf /' | su`: the shell it starts reads stdin
  if (spec.stdinShell === true)
    stdinCode(w, {
      language: "shell",
      interpreter: program,
      host,
      base,
      hostCtx: hostCtx(ctx, { wrapper: program, host, base }),
      ctx,
    });
  return undefined;
}

/** `env -S STR`: the string split into words (parsed, never split by hand); `undefined` when it is not one plain command. */
function splitString(w: Walk, word: ShellWord, text: string, ctx: Ctx): ArgWord[] | undefined {
  if (word.value === undefined) {
    w.report("dynamic-code", text);
    return undefined;
  }
  const script = parse(word.value);
  const statement = script.commands[0];
  const command = statement?.command;
  if (
    script.errors !== undefined ||
    script.commands.length !== 1 ||
    command?.type !== "Command" ||
    statement?.background === true ||
    command.prefix.length > 0 ||
    command.suffix.some((s) => s.type !== "Word")
  ) {
    w.report("env-split-string", text);
    return undefined;
  }
  const out: ArgWord[] = [];
  for (const x of [command.name, ...command.suffix]) {
    if (x === undefined || x.type !== "Word") continue;
    if (
      x.parts?.some(
        (p) => p.type === "CommandExpansion" || p.type === "ProcessSubstitution" || p.type === "ArithmeticExpansion",
      ) === true
    ) {
      w.report("env-split-string", text);
      return undefined;
    }
    out.push(...resolveWord(x, { ...w.env(ctx), positional: undefined }).words.map(plain));
  }
  return out;
}
