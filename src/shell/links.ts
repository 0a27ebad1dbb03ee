/**
 * `linkEffects`: the links the commands of an analysis make (`ln -s`, `cp -l`, `link`, `mklink`,
 * `os.symlink`, `fs.linkSync`, ...), from the program knowledge in `tables/links.ts` and the link
 * APIs of `tables/apis.ts`; `linkCopies`: the paths moved or copied as they are (`mv`, `cp -P`), a
 * link among them staying a link. Paths stay as written: the policy resolves them against
 * `ShellCommand.cwd` and the disk (src/policy/resolve.ts).
 */
import { detailedView, type DetailedView } from "./detailed-view.ts";
import { syntheticWord } from "./words.ts";
import {
  LINK_API_SHAPES,
  LINK_COPIERS,
  LINK_PROGRAMS,
  NEW_ITEM_PARAMETERS,
  NEW_ITEM_TYPES,
  type LinkCopier,
  type LinkProgram,
} from "./tables/links.ts";
import type { InterpreterCall, LinkCopy, LinkEffect, ShellAnalysis, ShellCommand, ShellWord } from "./types.ts";

/** A path only known at run time. */
const DYNAMIC: ShellWord = { text: "<run-time path>", value: undefined, glob: false };

const wordOf = (value: string | undefined): ShellWord => (value === undefined ? DYNAMIC : syntheticWord(value));

const has = (view: DetailedView, names: readonly string[] | undefined): boolean =>
  names !== undefined && names.some((n) => view.flags.has(n) || view.values.has(n));

/** Every link the commands of `analysis` make, in command order. */
export function linkEffects(analysis: ShellAnalysis): LinkEffect[] {
  const out: LinkEffect[] = [];
  for (const cmd of analysis.commands) {
    const program = cmd.program;
    if (program === undefined || !Object.hasOwn(LINK_PROGRAMS, program)) continue;
    for (const link of programLinks(cmd, LINK_PROGRAMS[program] as LinkProgram)) {
      // `find DIR -exec ln -s {} . \;`: the targets are what `find` finds, in its start paths
      const found = cmd.runtimeArgs && cmd.searchRoots.length > 0 && link.target.value?.includes("{}") === true;
      if (!found) out.push(link);
      else for (const root of cmd.searchRoots) out.push({ ...link, target: root, recursive: true });
    }
  }
  for (const call of analysis.calls) {
    const link = apiLink(call);
    if (link !== undefined) out.push(link);
  }
  return out.sort((a, b) => a.command - b.command);
}

function programLinks(cmd: ShellCommand, spec: LinkProgram): LinkEffect[] {
  const view = detailedView(cmd.program, cmd.args);
  switch (spec.custom) {
    case "rsync":
      return rsyncLinks(cmd, view);
    case "lndir":
      return lndirLinks(cmd, view);
    case "new-item":
      return newItemLinks(cmd);
    case undefined:
      break;
    default: {
      const unknown: never = spec.custom;
      return unknown;
    }
  }
  const base = { command: cmd.index, recursive: has(view, spec.recursive), force: has(view, spec.force) };
  if (spec.switches !== undefined) {
    // cmd.exe: `/H` and friends are switches, in any case, anywhere
    const isSwitch = (w: ShellWord) => w.value !== undefined && spec.switches!.all.includes(w.value.toLowerCase());
    const words = cmd.args.filter((w) => !isSwitch(w));
    const hard = cmd.args.some((w) => w.value !== undefined && spec.switches!.hard.includes(w.value.toLowerCase()));
    const [first, second] = spec.pair === "name-target" ? [words[1], words[0]] : [words[0], words[1]];
    if (first === undefined || second === undefined) return [];
    return [
      {
        ...base,
        kind: hard ? "hard" : "symbolic",
        target: first,
        name: second,
        place: "exact",
        base: hard ? "cwd" : "link",
      },
    ];
  }
  const kind = has(view, spec.symbolic) ? "symbolic" : has(view, spec.hard) ? "hard" : spec.default;
  if (kind === undefined) return [];
  const operands = view.operands.map((o) => o.word);
  const relative = kind === "hard" || has(view, spec.relative) ? "cwd" : "link";
  if (spec.pair !== undefined) {
    const [target, name] = spec.pair === "name-target" ? [operands[1], operands[0]] : [operands[0], operands[1]];
    if (target === undefined || name === undefined) return [];
    return [{ ...base, kind, target, name, place: "exact", base: relative }];
  }
  const targetDir = (spec.targetDir ?? []).flatMap((o) => view.values.get(o) ?? []).at(-1);
  let targets: ShellWord[];
  let name: ShellWord;
  let place: LinkEffect["place"];
  if (targetDir !== undefined) {
    targets = operands;
    name = targetDir;
    place = "into";
  } else if (operands.length >= 2) {
    targets = operands.slice(0, -1);
    name = operands.at(-1) as ShellWord;
    const trailing = name.value?.endsWith("/") === true;
    place = has(view, spec.exact) ? "exact" : targets.length > 1 || trailing ? "into" : "maybe-into";
  } else if (operands.length === 1 && spec.single === true) {
    targets = operands;
    name = syntheticWord(".");
    place = "into";
  } else return [];
  return targets.map((target) => ({ ...base, kind, target, name, place, base: relative }));
}

/**
 * The paths the commands of `analysis` move or copy as they are (`mv`, `cp -P`/`-a`/`-R`), each
 * with where it goes: a symbolic link among them stays a link at its new place.
 */
export function linkCopies(analysis: ShellAnalysis): LinkCopy[] {
  const out: LinkCopy[] = [];
  for (const cmd of analysis.commands) {
    const program = cmd.program;
    if (program === undefined || !Object.hasOwn(LINK_COPIERS, program)) continue;
    const spec = LINK_COPIERS[program] as LinkCopier;
    const view = detailedView(program, cmd.args);
    if ((spec.flags !== undefined && !has(view, spec.flags)) || has(view, spec.unless)) continue;
    const operands = view.operands.map((o) => o.word);
    const targetDir = spec.targetDir.flatMap((o) => view.values.get(o) ?? []).at(-1);
    if (targetDir !== undefined) {
      for (const from of operands) out.push({ command: cmd.index, from, to: targetDir, place: "into" });
      continue;
    }
    if (operands.length < 2) continue;
    const to = operands.at(-1) as ShellWord;
    const sources = operands.slice(0, -1);
    const place = has(view, spec.exact)
      ? "exact"
      : sources.length > 1 || to.value?.endsWith("/") === true
        ? "into"
        : "maybe-into";
    for (const from of sources) out.push({ command: cmd.index, from, to, place });
  }
  return out;
}

/** `rsync --link-dest=DIR SRC... DEST`: DEST's unchanged files become hard links to DIR's (relative to DEST). */
function rsyncLinks(cmd: ShellCommand, view: DetailedView): LinkEffect[] {
  const dirs = view.values.get("--link-dest") ?? [];
  const dest = view.operands.at(-1)?.word;
  if (dirs.length === 0 || dest === undefined || view.operands.length < 2) return [];
  return dirs.map((target) => ({
    command: cmd.index,
    kind: "hard",
    target,
    name: dest,
    place: "exact",
    base: "name",
    recursive: true,
    force: false,
  }));
}

/** `lndir FROMDIR [TODIR]`: symbolic links in TODIR (default `.`) to FROMDIR's files, FROMDIR relative to TODIR. */
function lndirLinks(cmd: ShellCommand, view: DetailedView): LinkEffect[] {
  const [from, to] = view.operands.map((o) => o.word);
  if (from === undefined) return [];
  return [
    {
      command: cmd.index,
      kind: "symbolic",
      target: from,
      name: to ?? syntheticWord("."),
      place: "exact",
      base: "name",
      recursive: true,
      force: false,
    },
  ];
}

/** `New-Item -ItemType SymbolicLink -Path LINK -Target TARGET` (parameters by unambiguous prefix, `-Name:value`). */
function newItemLinks(cmd: ShellCommand): LinkEffect[] {
  const given = new Map<"type" | "name" | "target" | "force", ShellWord>();
  const positional: ShellWord[] = [];
  const args = cmd.args;
  for (let i = 0; i < args.length; i++) {
    const word = args[i] as ShellWord;
    const text = word.value;
    if (text === undefined || !text.startsWith("-") || text.length < 2) {
      positional.push(word);
      continue;
    }
    const colon = text.indexOf(":");
    const written = (colon > 0 ? text.slice(0, colon) : text).toLowerCase();
    const names = Object.keys(NEW_ITEM_PARAMETERS).filter((n) => n.startsWith(written));
    const meanings = new Set(names.map((n) => NEW_ITEM_PARAMETERS[n]));
    if (meanings.size !== 1) continue;
    const meaning = [...meanings][0]!;
    if (meaning === "force") {
      given.set("force", word);
      continue;
    }
    const value = colon > 0 ? syntheticWord(text.slice(colon + 1)) : args[++i];
    if (value !== undefined) given.set(meaning, value);
  }
  const type = given.get("type");
  const name = given.get("name") ?? positional[0];
  const target = given.get("target");
  if (type === undefined || name === undefined || target === undefined) return [];
  const kind = type.value === undefined ? "symbolic" : NEW_ITEM_TYPES[type.value.toLowerCase()];
  if (kind === undefined) return [];
  return [
    {
      command: cmd.index,
      kind,
      target,
      name,
      place: "exact",
      base: kind === "hard" ? "cwd" : "link",
      recursive: false,
      force: given.has("force"),
    },
  ];
}

/** The link an API call makes (`os.symlink(target, name)`), if it makes one. */
function apiLink(call: InterpreterCall): LinkEffect | undefined {
  if (call.access !== "symlink" && call.access !== "hardlink") return undefined;
  const kind = call.access === "symlink" ? "symbolic" : "hard";
  const shape = Object.hasOwn(LINK_API_SHAPES, call.api) ? LINK_API_SHAPES[call.api] : undefined;
  return {
    command: call.command,
    kind,
    target: wordOf(call.args[0]),
    name: wordOf(call.args[1]),
    place: shape?.place ?? "exact",
    base: shape?.base ?? (kind === "hard" ? "cwd" : "link"),
    recursive: false,
    force: false,
  };
}
