/**
 * A synchronous child process for the hooks, without loading `node:child_process`. That module
 * loads `net` and the stream modules with it: 5-6 ms of a hook process, more than the git process
 * it starts (measured on Node 20, `npm run bench` tasks rows). `child_process.spawnSync` is a thin
 * layer over Node's `spawn_sync` binding; {@link spawnSyncQuick} calls the binding with the
 * options `spawnSync` gives it for three pipes (file, argv, cwd, `KEY=value` pairs, timeout,
 * maxBuffer) and reads its answer as `spawnSync` does.
 *
 * Every doubt before the child starts goes to `child_process.spawnSync`, which then answers: no
 * binding (a Node that removed `process.binding` or this one), a binding that throws on its options,
 * or a NUL byte in the file, an argument, the directory or the environment (`spawnSync` refuses
 * those; the binding would cut the string at it). An answer of another shape, once the child ran,
 * is an error for that call (never a second run of the child) and ends the binding's use.
 */
import { builtin } from "./builtin.ts";

export interface SyncSpawnOptions {
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  readonly input?: string | Uint8Array;
  readonly timeout: number;
  readonly maxBuffer: number;
}

/** What the child did: `spawnSync`'s fields the hooks read. */
export interface SyncSpawnResult {
  readonly status: number | null;
  readonly signal: string | null;
  readonly stdout: Buffer;
  readonly stderr: Buffer;
  /** Why the child could not start or was stopped (`spawnSync <file> ENOENT`, `ETIMEDOUT`, `ENOBUFS`). */
  readonly error?: Error;
}

interface Binding {
  spawn(options: Record<string, unknown>): unknown;
}

type ChildProcess = typeof import("node:child_process");

let binding: Binding | null | undefined;
/** The `spawn_sync` binding, or `null` when this Node does not give it. */
function spawnBinding(): Binding | null {
  if (binding !== undefined) return binding;
  try {
    const b = (process as unknown as { binding?: (name: string) => unknown }).binding?.("spawn_sync") as
      Partial<Binding> | undefined;
    binding = typeof b?.spawn === "function" ? (b as Binding) : null;
  } catch {
    binding = null;
  }
  return binding;
}

/** Pipes on the three descriptors, as `child_process` describes them to the binding. */
const stdio = (input: Buffer | undefined): Record<string, unknown>[] => [
  { type: "pipe", readable: true, writable: false, ...(input !== undefined && { input }) },
  { type: "pipe", readable: false, writable: true },
  { type: "pipe", readable: false, writable: true },
];

const hasNul = (s: string): boolean => s.includes("\0");

/** The binding's answer as a result, or `undefined` when it is not of the shape `spawnSync` reads. */
function resultOf(file: string, raw: unknown): SyncSpawnResult | undefined {
  if (typeof raw !== "object" || raw === null) return undefined;
  const r = raw as { status?: unknown; signal?: unknown; output?: unknown; error?: unknown };
  const status = r.status ?? null;
  const signal = r.signal ?? null;
  if ((status !== null && typeof status !== "number") || (signal !== null && typeof signal !== "string"))
    return undefined;
  if (r.error !== undefined && typeof r.error !== "number") return undefined;
  let stdout: Buffer = Buffer.alloc(0);
  let stderr: Buffer = Buffer.alloc(0);
  if (r.output !== null && r.output !== undefined) {
    if (!Array.isArray(r.output) || !Buffer.isBuffer(r.output[1]) || !Buffer.isBuffer(r.output[2])) return undefined;
    stdout = r.output[1];
    stderr = r.output[2];
  } else if (r.error === undefined) return undefined;
  const error = typeof r.error === "number" ? new Error(`spawnSync ${file} ${safeErrorName(r.error)}`) : undefined;
  return { status, signal, stdout, stderr, ...(error !== undefined && { error }) };
}

/** `ENOENT` for -2: `node:util` loaded only when a child failed (it costs a fifth of a millisecond at start). */
function safeErrorName(errno: number): string {
  try {
    return builtin<typeof import("node:util")>("node:util").getSystemErrorName(errno);
  } catch {
    return `error ${errno}`;
  }
}

/** `child_process.spawnSync(file, args, options)`, read as a {@link SyncSpawnResult}. */
function viaChildProcess(file: string, args: readonly string[], options: SyncSpawnOptions): SyncSpawnResult {
  const run = builtin<ChildProcess>("node:child_process").spawnSync(file, args, {
    cwd: options.cwd,
    env: options.env,
    ...(options.input !== undefined && { input: options.input }),
    timeout: options.timeout,
    maxBuffer: options.maxBuffer,
  });
  return {
    status: run.status,
    signal: run.signal,
    stdout: run.stdout ?? Buffer.alloc(0),
    stderr: run.stderr ?? Buffer.alloc(0),
    ...(run.error !== undefined && { error: run.error }),
  };
}

/** Runs `file` with `args` to its end (or its timeout), stdout and stderr captured; never throws for the child's failure. */
export function spawnSyncQuick(file: string, args: readonly string[], options: SyncSpawnOptions): SyncSpawnResult {
  const b = spawnBinding();
  const envPairs = Object.entries(options.env).map(([k, v]) => `${k}=${v}`);
  if (b === null || hasNul(file) || hasNul(options.cwd) || args.some(hasNul) || envPairs.some(hasNul))
    return viaChildProcess(file, args, options);
  const input =
    options.input === undefined
      ? undefined
      : typeof options.input === "string"
        ? Buffer.from(options.input, "utf8")
        : Buffer.from(options.input.buffer, options.input.byteOffset, options.input.byteLength);
  let raw: unknown;
  try {
    raw = b.spawn({
      file,
      args: [file, ...args],
      cwd: options.cwd,
      envPairs,
      stdio: stdio(input),
      timeout: options.timeout,
      maxBuffer: options.maxBuffer,
      detached: false,
      windowsHide: false,
      windowsVerbatimArguments: false,
    });
  } catch {
    // refused before it started anything (its options are checked first): Node's own way answers
    return viaChildProcess(file, args, options);
  }
  const result = resultOf(file, raw);
  if (result !== undefined) return result;
  // the child ran and the answer is of another shape: never run it twice; this process stops using the binding
  binding = null;
  return {
    status: null,
    signal: null,
    stdout: Buffer.alloc(0),
    stderr: Buffer.alloc(0),
    error: new Error(`spawnSync ${file}: this Node answered in an unknown shape; run the call again`),
  };
}
