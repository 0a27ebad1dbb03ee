/**
 * `find`: the start paths bound what `-delete` and `-exec`/`-execdir`/`-ok`/`-okdir` commands
 * receive; each `-exec` command is analysed with run-time arguments (the `{}` placeholder).
 */
import { syntheticWord } from "../words.ts";
import { FD_EXEC, FD_VALUED } from "../tables/programs.ts";
import type { ShellWord } from "../types.ts";
import { copyState, emptyBase, withVia, type ArgWord, type Ctx, type Invocation } from "../walk/context.ts";
import type { Walk } from "./contract.ts";

export function find(w: Walk, inv: Invocation): void {
  const { words, base, ctx } = inv;
  const values = words.map((x) => x.word.value);
  let i = 1;
  // global options: -H -L -P -D debugopts -Olevel
  while (i < words.length) {
    const v = values[i];
    if (v === "-H" || v === "-L" || v === "-P" || v?.startsWith("-O") === true) i++;
    else if (v === "-D") i += 2;
    else break;
  }
  const roots: ShellWord[] = [];
  while (i < words.length) {
    const v = values[i];
    if (v !== undefined && (v.startsWith("-") || v === "(" || v === "!" || v === ")" || v === ",")) break;
    roots.push((words[i] as ArgWord).word);
    i++;
  }
  if (roots.length === 0) roots.push(syntheticWord("."));
  const groups: { words: ArgWord[]; dir: boolean }[] = [];
  let deletes = false;
  while (i < words.length) {
    const v = values[i];
    if (v === "-delete") deletes = true;
    if (v === "-exec" || v === "-execdir" || v === "-ok" || v === "-okdir") {
      const group: ArgWord[] = [];
      let j = i + 1;
      for (; j < words.length; j++) {
        const x = values[j];
        if (x === ";" || (x === "+" && values[j - 1] === "{}")) break;
        group.push(words[j] as ArgWord);
      }
      groups.push({ words: group, dir: v.endsWith("dir") });
      i = j + 1;
      continue;
    }
    i++;
  }
  const index = w.emit(words, base, ctx, deletes || groups.length > 0 ? roots : undefined);
  for (const group of groups) {
    if (group.words.length === 0) continue;
    const state = copyState(ctx.state);
    if (group.dir) {
      state.cwd = undefined;
      state.vars.set("PWD", undefined);
    }
    const inner: Ctx = {
      ...ctx,
      via: withVia(ctx, "find-exec"),
      wrappers: [...ctx.wrappers, "find"],
      runtimeArgs: true,
      searchRoots: roots,
      launchedBy: index,
      state,
      redirects: [],
      stdinRedirects: [],
    };
    w.execute(group.words, emptyBase(base.text), inner);
  }
}

/** `fd PATTERN [PATH...] -x CMD`: like `find -exec`, the command gets each match at run time. */
export function fd(w: Walk, inv: Invocation): void {
  const { words, base, ctx } = inv;
  const values = words.map((x) => x.word.value);
  const exec = values.findIndex((v, i) => i > 0 && v !== undefined && FD_EXEC.includes(v));
  const operands: ShellWord[] = [];
  for (let i = 1; i < (exec < 0 ? words.length : exec); i++) {
    const v = values[i];
    if (v !== undefined && FD_VALUED.includes(v)) i++;
    else if (v === undefined || !v.startsWith("-")) operands.push((words[i] as ArgWord).word);
  }
  const roots = operands.length > 1 ? operands.slice(1) : [syntheticWord(".")];
  const index = w.emit(words, base, ctx, exec < 0 ? undefined : roots);
  if (exec < 0) return;
  const end = values.indexOf(";", exec + 1);
  const command = words.slice(exec + 1, end < 0 ? words.length : end);
  if (command.length === 0) return;
  w.execute(command, emptyBase(base.text), {
    ...ctx,
    via: withVia(ctx, "find-exec"),
    wrappers: [...ctx.wrappers, "fd"],
    runtimeArgs: true,
    searchRoots: roots,
    launchedBy: index,
    state: copyState(ctx.state),
    redirects: [],
    stdinRedirects: [],
  });
}
