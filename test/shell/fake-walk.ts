/**
 * A fake of the walk a handler talks to (`src/shell/handlers/contract.ts`): it records what the
 * handler reports and asks to run, answers from what the test gives it, and walks nothing itself.
 */
import { NO_DISK, type DiskView } from "../../src/host/disk-view.ts";
import type { CodeRecord, Slot, Walk, WrittenFile } from "../../src/shell/handlers/contract.ts";
import type { AgentRun, DeferredCode, FileRead, InterpreterCall, ShellCommand } from "../../src/shell/types.ts";
import type { UnrepresentableCode } from "../../src/shell/unrepresentable.ts";
import { emptyBase, plain, topCtx, type ArgWord, type Ctx, type Invocation } from "../../src/shell/walk/context.ts";
import { syntheticWord } from "../../src/shell/words.ts";
import { CWD, HOME } from "./helpers.ts";

/** What a handler did through the fake walk. */
export interface WalkLog {
  /** Recorded commands, as `argv` lines. */
  readonly emitted: string[];
  readonly code: CodeRecord[];
  readonly calls: InterpreterCall[];
  readonly agents: AgentRun[];
  readonly deferred: DeferredCode[];
  readonly reports: { code: UnrepresentableCode; text: string }[];
  /** Commands the handler asked the walk to run, with the context it gave them. */
  readonly executed: { argv: string[]; ctx: Ctx }[];
  /** Shell text the handler asked the walk to parse and walk. */
  readonly walked: string[];
  /** Files the handler looked for on disk. */
  readonly reads: FileRead[];
}

export interface FakeWalkOptions {
  /** The text every command reads on stdin. */
  readonly stdin?: string;
  /** Files written earlier on the line, by path as the handler asks for them. */
  readonly written?: Readonly<Record<string, string>>;
  readonly maxDepth?: number;
  /** The disk the handler sees (default: nothing on it is known). */
  readonly disk?: DiskView;
}

/** A fake walk and the log of what the handler did through it. */
export function fakeWalk(options: FakeWalkOptions = {}): { walk: Walk; log: WalkLog } {
  const log: WalkLog = {
    emitted: [],
    code: [],
    calls: [],
    agents: [],
    deferred: [],
    reports: [],
    executed: [],
    walked: [],
    reads: [],
  };
  const commands: ShellCommand[] = [];
  const memos = new Map<Slot<unknown>, unknown>();
  const argv = (words: readonly ArgWord[]): string[] => words.map((w) => w.word.value ?? `<${w.word.text}>`);
  const walk: Walk = {
    options: { home: HOME, cwd: CWD },
    disk: options.disk ?? NO_DISK,
    command: (index) => commands[index],
    pipedInto: () => [],
    stdinText: () => options.stdin,
    writtenFile: (path): WrittenFile | undefined => {
      const text = path === undefined ? undefined : options.written?.[path];
      return text === undefined ? undefined : { text, producers: [] };
    },
    env: (ctx) => ({ home: HOME, pwd: ctx.state.cwd, positional: undefined }),
    memo: <T>(slot: Slot<T>): T => {
      if (!memos.has(slot)) memos.set(slot, slot.create());
      return memos.get(slot) as T;
    },
    emit: (words, base, ctx) => {
      const index = commands.length;
      const all = words.map((w) => w.word);
      commands.push({
        index,
        argv: all,
        program: all[0]?.value,
        args: all.slice(1),
        assignments: base.assignments,
        redirects: base.redirects,
        wrappers: ctx.wrappers,
        via: ctx.via,
        depth: ctx.depth,
        runtimeArgs: ctx.runtimeArgs,
        searchRoots: ctx.searchRoots,
        cwd: ctx.state.cwd,
        text: base.text,
        launchedBy: ctx.launchedBy,
        ...(options.stdin !== undefined && { stdin: options.stdin }),
      });
      log.emitted.push(argv(words).join(" "));
      return index;
    },
    addCode: (record) => log.code.push(record),
    addCall: (call) => log.calls.push(call),
    addAgentRun: (run) => log.agents.push(run),
    addDeferred: (code) => log.deferred.push(code),
    noteRead: (read) => log.reads.push(read),
    writtenFiles: () => new Map(),
    report: (code, text) => log.reports.push({ code, text }),
    tick: () => {},
    beyondDepth: (ctx) => ctx.depth + 1 > (options.maxDepth ?? 5),
    execute: (words, _base, ctx) => log.executed.push({ argv: argv(words), ctx }),
    parseAndWalk: (source) => log.walked.push(source),
    atExit: (run) => run(),
    defineAlias: () => {},
  };
  return { walk, log };
}

/** The invocation of `words` (literal words) at the top level, in the corpus' directory. */
export function invocation(...words: string[]): Invocation {
  const state = { cwd: CWD, vars: new Map(), positional: undefined };
  const text = words.join(" ");
  return {
    program: words[0] as string,
    words: words.map((w) => plain(syntheticWord(w))),
    base: emptyBase(text),
    ctx: topCtx(text, state),
    shell: state,
  };
}
