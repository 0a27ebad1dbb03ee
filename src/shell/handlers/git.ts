/**
 * git, and options whose value is a command (`tables/embedded.ts`: `rsync -e CMD`, `git -c
 * core.pager=CMD`). Git aliases defined on the line (`git config alias.x 'reset --hard'`,
 * `git -c alias.x=...`) are expanded: `git x` is analysed as `git reset --hard`; a `!` alias is a
 * shell string.
 */
import { detailedView } from "../detailed-view.ts";
import { EMBEDDED_COMMANDS, ENV_COMMANDS } from "../tables/embedded.ts";
import { emptyBase, joinWords, plain, synthetic, type ArgWord, type Invocation } from "../walk/context.ts";
import type { Slot, Walk } from "./contract.ts";
import { deleteEveryListed } from "./listings.ts";
import { codeSource, hostCtx, shellString } from "./code.ts";
import { configFromEnvironment, configWrites, gitProgramConfig } from "./git-config.ts";
import { gitHooks } from "./git-hooks.ts";

/** Options whose value is a command the program runs (`rsync -e CMD`, `git -c core.pager=CMD`). */
export function embedded(w: Walk, inv: Invocation, host: number): void {
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

/** Git configuration set on the line (`git config alias.x '...'`), by lowercased key. */
const CONFIG: Slot<Map<string, string>> = { create: () => new Map() };

/**
 * `git ...`: records configuration set on the line, expands a known alias, then records the command
 * as written or expanded, and the commands it runs (`submodule foreach`, `bisect run`, hooks of
 * `rebase --exec` through {@link embedded}). `git tag -d $(git tag -l)` deletes every tag (`listings.ts`).
 */
export function git(w: Walk, given: Invocation): void {
  const inv = withEnvConfig(deleteEveryListed(w, given));
  const { words } = inv;
  const view = detailedView(
    "git",
    words.slice(1).map((x) => x.word),
  );
  const config = new Map(w.memo(CONFIG));
  const fromOption = new Set<string>();
  // what this one command is given: `-c key=value`, `--config-env=key=VAR`, `GIT_CONFIG_*` variables
  const once: { key: string; value: string | undefined; kind: "git-option" }[] = [];
  for (const c of view.values.get("-c") ?? []) {
    const v = c.value;
    if (v === undefined) {
      once.push({ key: "*", value: undefined, kind: "git-option" });
      continue;
    }
    const eq = v.indexOf("=");
    // `-c key` without `=` sets a boolean to true
    once.push({ key: eq < 0 ? v : v.slice(0, eq), value: eq < 0 ? "true" : v.slice(eq + 1), kind: "git-option" });
  }
  for (const word of words) {
    const v = word.word.value;
    if (v?.startsWith("--config-env=") === true && v.includes("=", 13))
      once.push({ key: v.slice(13, v.indexOf("=", 13)), value: undefined, kind: "git-option" });
  }
  for (const [key, value] of configFromEnvironment(inv)) once.push({ key, value, kind: "git-option" });
  for (const { key, value } of once) {
    if (key === "*" || value === undefined) continue;
    config.set(key.toLowerCase(), value);
    fromOption.add(key.toLowerCase());
  }
  const configured = [
    ...configWrites(inv).map(([key, value]) => ({ key, value, kind: "git-config" as const })),
    ...once,
  ];
  const positionals = view.operands.map((o) => o.word);
  const sub = positionals[0];
  const subIndex = sub === undefined ? -1 : words.findIndex((x) => x.word === sub);
  recordConfig(
    w,
    positionals.map((p) => p.value),
  );
  // `git $CMD --hard`: what git would do is only known at run time
  if (sub !== undefined && sub.value === undefined)
    w.report("dynamic-command-name", inv.base.text, "the git subcommand");
  const aliasKey = sub?.value === undefined ? undefined : `alias.${sub.value.toLowerCase()}`;
  const alias = aliasKey === undefined ? undefined : config.get(aliasKey);
  if (alias === undefined || subIndex < 0 || alias.startsWith("!")) {
    const written = withConfig(words, subIndex, config);
    const host = w.emit(written, inv.base, inv.ctx);
    embedded(w, { ...inv, words: written }, host);
    gitProgramConfig(w, inv, host, configured);
    if (alias?.startsWith("!") === true && !fromOption.has(aliasKey!)) {
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
    runs(w, { ...inv, words: written }, host);
    gitHooks(w, { ...inv, words: written }, host, config);
    return;
  }
  const expansion = alias
    .split(/\s+/)
    .filter((s) => s.length > 0)
    .map(synthetic);
  const expanded = withConfig(
    [...words.slice(0, subIndex), ...expansion, ...words.slice(subIndex + 1)],
    subIndex,
    config,
  );
  const host = w.emit(expanded, inv.base, inv.ctx);
  embedded(w, { ...inv, words: expanded }, host);
  gitProgramConfig(w, inv, host, configured);
  runs(w, { ...inv, words: expanded }, host);
  gitHooks(w, { ...inv, words: expanded }, host, config);
}

/** The longest `GIT_CONFIG_COUNT` read: a larger count is bounded, not followed to its end. */
const MAX_ENV_CONFIG = 32;

/**
 * `GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.x GIT_CONFIG_VALUE_0='!rm -rf ~' git x`: configuration
 * given in the environment (on the command or exported earlier on the line) is what `git -c
 * KEY=VALUE` gives, so it is added to the words as such and analysed the same way.
 */
function withEnvConfig(inv: Invocation): Invocation {
  const given = new Map(inv.base.assignments.map((a) => [a.name, a.value.value]));
  const value = (name: string): string | undefined => {
    if (given.has(name)) return given.get(name);
    const bound = inv.ctx.state.vars.get(name);
    return bound?.set === true ? bound.value : undefined;
  };
  const count = Number.parseInt(value("GIT_CONFIG_COUNT") ?? "", 10);
  if (!Number.isInteger(count) || count <= 0) return inv;
  const added: ArgWord[] = [];
  for (let i = 0; i < Math.min(count, MAX_ENV_CONFIG); i++) {
    const key = value(`GIT_CONFIG_KEY_${i}`);
    const val = value(`GIT_CONFIG_VALUE_${i}`);
    if (key === undefined || val === undefined) continue;
    added.push(synthetic("-c"), synthetic(`${key}=${val}`));
  }
  if (added.length === 0) return inv;
  return { ...inv, words: [...inv.words.slice(0, 1), ...added, ...inv.words.slice(1)] };
}

/** Values git reads as boolean false (`git config --type=bool`). */
const FALSE = new Set(["false", "no", "off", "0", ""]);

/**
 * What configuration changes in the command itself: with `clean.requireForce` false, `git clean`
 * deletes without `-f`, so it is recorded as `git clean --force`.
 */
function withConfig(words: readonly ArgWord[], subIndex: number, config: ReadonlyMap<string, string>): ArgWord[] {
  const sub = subIndex < 0 ? undefined : words[subIndex]?.word.value;
  const requireForce = config.get("clean.requireforce");
  if (sub === "clean" && requireForce !== undefined && FALSE.has(requireForce.toLowerCase()))
    return [...words.slice(0, subIndex + 1), synthetic("--force"), ...words.slice(subIndex + 1)];
  return [...words];
}

/** Options of `git submodule foreach` before its command. */
const FOREACH_OPTIONS = new Set(["--recursive", "-q", "--quiet"]);

/**
 * Commands git runs from its arguments: `git submodule foreach CMD` (one word is a shell string,
 * several are a command and its arguments) and `git bisect run CMD ARGS`.
 */
function runs(w: Walk, inv: Invocation, host: number): void {
  const view = detailedView(
    "git",
    inv.words.slice(1).map((x) => x.word),
  );
  const names = view.operands.map((o) => o.word.value);
  let verb: number;
  if (names[0] === "submodule") verb = names.indexOf("foreach");
  else if (names[0] === "bisect" && names[1] === "run") verb = 1;
  else return;
  if (verb < 0) return;
  const at = inv.words.findIndex((x) => x.word === view.operands[verb]!.word);
  let rest = inv.words.slice(at + 1);
  while (rest.length > 0 && names[0] === "submodule" && FOREACH_OPTIONS.has(rest[0]!.word.value ?? ""))
    rest = rest.slice(1);
  if (rest.length === 0) return;
  const ctx = hostCtx(inv.ctx, { host });
  if (rest.length === 1 && names[0] === "submodule")
    shellString(w, { word: rest[0]!, interpreter: "git", host, base: inv.base, ctx, via: "shell-string" });
  else w.execute(rest, emptyBase(inv.base.text), ctx);
}

/** `git config [scope] KEY VALUE` (and `git config set KEY VALUE`) sets a key for the rest of the line. */
function recordConfig(w: Walk, positionals: readonly (string | undefined)[]): void {
  if (positionals[0] !== "config") return;
  const rest = positionals[1] === "set" ? positionals.slice(2) : positionals.slice(1);
  const [key, value] = rest;
  if (key === undefined || !key.includes(".")) return;
  const name = key.toLowerCase();
  if (value === undefined) w.memo(CONFIG).delete(name);
  else w.memo(CONFIG).set(name, value);
}
