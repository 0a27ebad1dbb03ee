/**
 * git, and options whose value is a command (`tables/embedded.ts`: `rsync -e CMD`, `git -c
 * core.pager=CMD`). Git aliases defined on the line (`git config alias.x 'reset --hard'`,
 * `git -c alias.x=...`) are expanded: `git x` is analysed as `git reset --hard`; a `!` alias is a
 * shell string.
 */
import { detailedView } from "../_argview.ts";
import { EMBEDDED_COMMANDS, ENV_COMMANDS } from "../tables/embedded.ts";
import { joinWords, plain, synthetic, type ArgWord, type Invocation } from "../walk/context.ts";
import type { Walker } from "../walk/traverse.ts";
import { codeSource, hostCtx, shellString } from "./code.ts";

/** Options whose value is a command the program runs (`rsync -e CMD`, `git -c core.pager=CMD`). */
export function embedded(w: Walker, inv: Invocation, host: number): void {
  const { program, words, base, ctx } = inv;
  // `GIT_SSH_COMMAND='...' git fetch`: a command in the environment the program is given
  const names = Object.hasOwn(ENV_COMMANDS, program) ? ENV_COMMANDS[program] : undefined;
  for (const a of names === undefined ? [] : base.assignments) {
    if (!names?.includes(a.name)) continue;
    if (a.value.value === undefined)
      codeSource(w, { language: "shell", interpreter: program, host, word: plain(a.value), text: base.text });
    else
      shellString(w, {
        word: plain(a.value),
        interpreter: program,
        host,
        base,
        ctx: hostCtx(ctx, { host }),
        via: "shell-string",
      });
  }
  const specs = Object.hasOwn(EMBEDDED_COMMANDS, program) ? EMBEDDED_COMMANDS[program] : undefined;
  if (specs === undefined) return;
  const view = detailedView(
    program,
    words.slice(1).map((x) => x.word),
  );
  for (const spec of specs) {
    for (const value of view.values.get(spec.option) ?? []) {
      let code = value.value;
      if (code === undefined) {
        if (spec.keys === undefined)
          codeSource(w, { language: "shell", interpreter: program, host, word: plain(value), text: base.text });
        continue;
      }
      if (spec.keys !== undefined) {
        const cut = [code.indexOf("="), code.indexOf(" ")]
          .filter((i) => i > 0)
          .reduce((a, b) => Math.min(a, b), Number.POSITIVE_INFINITY);
        if (!Number.isFinite(cut)) continue;
        const key = code.slice(0, cut).toLowerCase();
        if (!spec.keys.some((k) => (k.endsWith(".") ? key.startsWith(k.toLowerCase()) : key === k.toLowerCase())))
          continue;
        code = code.slice(cut + 1);
      }
      if (spec.bang === true) {
        if (!code.startsWith("!")) continue;
        code = code.slice(1);
      }
      shellString(w, {
        word: plain({ text: value.text, value: code, glob: false }),
        interpreter: program,
        host,
        base,
        ctx: hostCtx(ctx, { host }),
        via: "shell-string",
      });
    }
  }
}

/** `git ...`: records aliases, expands a known alias, then the command as written or expanded. */
export function git(w: Walker, inv: Invocation): number {
  const { words } = inv;
  const view = detailedView(
    "git",
    words.slice(1).map((x) => x.word),
  );
  const aliases = new Map(w.gitAliases);
  for (const c of view.values.get("-c") ?? []) {
    const v = c.value;
    const eq = v?.indexOf("=") ?? -1;
    if (v !== undefined && eq > 0 && v.slice(0, eq).toLowerCase().startsWith("alias."))
      aliases.set(v.slice(6, eq).toLowerCase(), v.slice(eq + 1));
  }
  const positionals = view.operands.map((o) => o.word);
  const sub = positionals[0];
  const subIndex = sub === undefined ? -1 : words.findIndex((x) => x.word === sub);
  recordConfig(
    w,
    positionals.map((p) => p.value),
  );
  const alias = sub?.value === undefined ? undefined : aliases.get(sub.value.toLowerCase());
  if (alias === undefined || subIndex < 0 || alias.startsWith("!")) {
    const host = w.emit(words, inv.base, inv.ctx);
    embedded(w, inv, host);
    if (
      alias?.startsWith("!") === true &&
      !(view.values.get("-c") ?? []).some((c) =>
        c.value?.toLowerCase().startsWith(`alias.${sub?.value?.toLowerCase()}=`),
      )
    ) {
      // a `!` alias from `git config`: a shell string with the arguments appended
      const word = joinWords([synthetic(alias.slice(1)), ...words.slice(subIndex + 1)]);
      shellString(w, {
        word,
        interpreter: "git",
        host,
        base: inv.base,
        ctx: hostCtx(inv.ctx, { host }),
        via: "shell-string",
      });
    }
    return host;
  }
  const expansion = alias
    .split(/\s+/)
    .filter((s) => s.length > 0)
    .map(synthetic);
  const expanded: ArgWord[] = [...words.slice(0, subIndex), ...expansion, ...words.slice(subIndex + 1)];
  const host = w.emit(expanded, inv.base, inv.ctx);
  embedded(w, { ...inv, words: expanded }, host);
  return host;
}

/** `git config [scope] alias.NAME VALUE` (and `git config set alias.NAME VALUE`) defines an alias. */
function recordConfig(w: Walker, positionals: readonly (string | undefined)[]): void {
  if (positionals[0] !== "config") return;
  const rest = positionals[1] === "set" ? positionals.slice(2) : positionals.slice(1);
  const [key, value] = rest;
  if (key === undefined || !key.toLowerCase().startsWith("alias.")) return;
  const name = key.slice(6).toLowerCase();
  if (value === undefined) w.gitAliases.delete(name);
  else w.gitAliases.set(name, value);
}
