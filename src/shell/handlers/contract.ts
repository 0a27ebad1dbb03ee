/**
 * The contract between the walk and the handlers of program families: what a handler may ask of
 * the walk (`Walk`), the one shape of a handler (`Handler`), and a row of the program registry
 * (`ProgramRow`, the table in `index.ts`). The walk (`walk/traverse.ts`) implements `Walk`; a
 * handler imports only this contract, the value helpers of `walk/context.ts`, the tables and other
 * handlers, never the walk itself, so a handler can be run against a fake walk in a unit test.
 */
import type { DiskView } from "../../host/disk-view.ts";
import type { WordEnv } from "../words.ts";
import type {
  AgentRun,
  AnalyzeOptions,
  CodeExecution,
  DeferredCode,
  CodeLanguage,
  FileRead,
  InterpreterCall,
  ShellCommand,
  ShellWord,
} from "../types.ts";
import type { UnrepresentableCode } from "../unrepresentable.ts";
import type { ArgWord, Base, Ctx, Invocation } from "../walk/context.ts";

/** A file written earlier on the same command line: its text when static, and who wrote it. */
export interface WrittenFile {
  readonly text: string | undefined;
  readonly producers: readonly number[];
  /**
   * The text was appended (`>>`, `tee -a`) to a file the line did not write first: `text` is the
   * known end of the file, after whatever it already held (a script that exists is run as such).
   */
  readonly partial?: boolean;
}

/** One code execution to record (an options object: `addCode({ language, ... })`). */
export interface CodeRecord {
  readonly language: CodeLanguage;
  readonly interpreter: string;
  readonly command: number;
  readonly source: CodeExecution["source"];
  readonly code?: string | undefined;
  readonly producers?: readonly number[];
  /** With source `disk`: the file the code was read from, as shown in messages. */
  readonly path?: string;
}

/**
 * Memory of one program family that lasts for the whole command line, created on first use
 * (`git config alias.x ...` read by a later `git x`). The family's module owns the slot, so the
 * walk holds the value without knowing what it is.
 */
export interface Slot<T> {
  readonly create: () => T;
}

/** What a handler may ask of the walk and report back. */
export interface Walk {
  // --- what it may read -------------------------------------------------------------------------
  /** The analysis options: the home directory, the working directory, the repository root. */
  readonly options: AnalyzeOptions;
  /**
   * The disk at hook time, read-only, every call counted against a bound (`NO_DISK` when the
   * evaluation has none): what a path is, the real path of its existing prefix, a file's text.
   */
  readonly disk: DiskView;
  /** A command recorded earlier on the line, by index (`emit`'s result, a producer, a pipe end). */
  command(index: number): ShellCommand | undefined;
  /** The commands whose stdout is piped into the command at `index`, in the order the pipes were made. */
  pipedInto(index: number): readonly number[];
  /** The statically known text a command reads on stdin (heredoc, herestring, file written on the line, pipe). */
  stdinText(base: Base, ctx: Ctx): string | undefined;
  /** A file written earlier on the line (a path relative to the context's directory, or absolute). */
  writtenFile(path: string | undefined, ctx: Ctx): WrittenFile | undefined;
  /** Every file written earlier on the line, by absolute path (code stored for a tool to run later). */
  writtenFiles(): ReadonlyMap<string, WrittenFile>;
  /** The word environment of the context's state, to resolve words the handler parsed itself. */
  env(ctx: Ctx): WordEnv;
  /** The family's memory for this line (see {@link Slot}). */
  memo<T>(slot: Slot<T>): T;

  // --- what it reports --------------------------------------------------------------------------
  /** Records one command (its static output and the files it writes too); returns its index. */
  emit(words: readonly ArgWord[], base: Base, ctx: Ctx, searchRoots?: readonly ShellWord[]): number;
  addCode(record: CodeRecord): void;
  addCall(call: InterpreterCall): void;
  /** Records another agent the line starts (a nested Claude Code, another vendor's agent CLI). */
  addAgentRun(run: AgentRun): void;
  /** Records code parked for another program to run later (a git key that names a program). */
  addDeferred(code: DeferredCode): void;
  /** Records a file looked for on disk for its code (`ShellAnalysis.reads`; `lanes check` lists them). */
  noteRead(read: FileRead): void;
  /** Records what the analysis cannot represent (the policy asks). */
  report(code: UnrepresentableCode, text: string, detail?: string): void;
  /** Charges `units` nodes against the walk's count bound (the walk unwinds past it). */
  tick(units?: number): void;
  /**
   * True when code one level below `ctx` would pass the nesting bound; the walk then records
   * `depth-limit` for `text` (the whole line when absent) and the handler stops descending.
   */
  beyondDepth(ctx: Ctx, text?: string): boolean;

  // --- how it continues the walk ----------------------------------------------------------------
  /** Runs a command as the shell would (aliases, functions, wrappers, then its handler). */
  execute(argv: readonly ArgWord[], base: Base, ctx: Ctx): void;
  /** Parses shell text and walks it in `ctx` (one level deeper is the caller's `ctx.depth`). */
  parseAndWalk(source: string, ctx: Ctx): void;
  /** Work that runs when the line ends (`trap ... EXIT`), walked after the whole line. */
  atExit(run: () => void): void;
  /** `alias NAME=TEXT` (`undefined`: `unalias NAME`), expanded by the walk in later commands. */
  defineAlias(name: string, text: string | undefined): void;
}

/**
 * A program family's handler: records the command (`walk.emit`) and what it would execute, read,
 * write and delete. The one shape every family has; `inv.shell` is the state builtins change.
 */
export type Handler = (walk: Walk, inv: Invocation) => void;

/**
 * One row of the program registry (`index.ts`): the programs a handler takes, by name, or by a
 * matcher for families that a name list cannot spell (version suffixes: `python3.12`; Windows
 * names in any case: `PowerShell.exe`, `IEX`). A program is claimed by at most one row.
 */
export type ProgramRow =
  | { readonly programs: readonly string[]; readonly handler: Handler }
  | {
      /** Why a name list does not do. */
      readonly family: string;
      /** Whether the row takes the invocation; the walk answers what the line did before (copies made, the disk). */
      readonly matches: (inv: Invocation, walk: Walk) => boolean;
      /**
       * Asked before the name rows: what a file is decides, not its name (a copy of a client named
       * `./git` is the client). Such a row takes only programs run by path.
       */
      readonly first?: true;
      readonly handler: Handler;
    };
