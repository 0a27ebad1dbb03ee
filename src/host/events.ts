/**
 * The hook protocol in one table: which Claude Code events lanes handles, in which bundle, with
 * which matcher and timeout, whether a failure blocks, and what each records in the audit log. The
 * wiring (`hooks/hooks.json`, `.claude/settings.json`), the build (one bundle per entry, the hot
 * ones with a cached loader) and the events hook read it, so a new event is a row here and its
 * handler.
 */
import { postToolUseMatcher } from "./tools.ts";

/**
 * The hook bundles. Every one is a small loader plus a V8-cached implementation (`<bundle>.impl.cjs`,
 * src/hooks/lazy/hook-loader.ts) that loads the shell analysis, glob compilation and the policy
 * compiler only when a call needs them, and holds no zod or YAML (scripts/build/hot-path.ts); `hot`
 * ones run on every tool call.
 */
export const BUNDLES = {
  "pre-tool-use": { hot: true },
  "post-tool-use": { hot: true },
  "session-start": { hot: false },
  events: { hot: false },
  tasks: { hot: false },
} as const satisfies Readonly<Record<string, { readonly hot: boolean }>>;
export type Bundle = keyof typeof BUNDLES;

/** One event lanes handles. */
export interface HookEventSpec {
  readonly event: string;
  readonly bundle: Bundle;
  /** The matcher; absent for events without one. */
  readonly matcher?: string;
  /** Seconds. */
  readonly timeout: number;
  /** An enforcing hook: a crash or timeout blocks the call (`onFailure: "block"`). */
  readonly block: boolean;
  /** The audit event the handler records, when it records one of its own. */
  readonly audit?: string;
}

// prettier-ignore
/** Every event lanes wires, in the order of the wiring. */
export const HOOK_EVENTS = [
  { event: "PreToolUse", bundle: "pre-tool-use", matcher: "*", timeout: 10, block: true },
  { event: "PostToolUse", bundle: "post-tool-use", matcher: postToolUseMatcher(), timeout: 10, block: false },
  { event: "PostToolUseFailure", bundle: "events", matcher: "*", timeout: 10, block: false, audit: "tool-failed" },
  { event: "SessionStart", bundle: "session-start", timeout: 30, block: false },
  { event: "SubagentStart", bundle: "events", timeout: 10, block: false, audit: "subagent-start" },
  { event: "SubagentStop", bundle: "events", timeout: 10, block: false, audit: "subagent-stop" },
  { event: "PreCompact", bundle: "events", timeout: 10, block: false, audit: "checkpoint" },
  // the task channel and validation on the way out (src/hooks/events/task-channel.ts)
  { event: "SubagentStart", bundle: "tasks", timeout: 15, block: false },
  { event: "SubagentStop", bundle: "tasks", timeout: 20, block: true },
  { event: "TaskCreated", bundle: "tasks", timeout: 15, block: true, audit: "task-created" },
  { event: "TaskCompleted", bundle: "tasks", timeout: 20, block: true, audit: "task-completed" },
  { event: "PostToolUse", bundle: "tasks", matcher: "Agent|TaskCreate|TaskUpdate", timeout: 20, block: false },
  { event: "UserPromptSubmit", bundle: "tasks", timeout: 15, block: false },
] as const satisfies readonly HookEventSpec[];

type Row = (typeof HOOK_EVENTS)[number];

/** Events handled by one bundle. */
export type EventOf<B extends Bundle> = Extract<Row, { readonly bundle: B }>["event"];

/** Audit events recorded by the handlers of the table. */
export type EventAudit = Extract<Row, { readonly audit: string }>["audit"];

/** True when `event` is handled by `bundle`. */
export const handledBy = <B extends Bundle>(event: string, bundle: B): event is EventOf<B> =>
  HOOK_EVENTS.some((row) => row.event === event && row.bundle === bundle);

/** Bundles that run on every tool call. */
export const HOT_BUNDLES: readonly Bundle[] = (Object.keys(BUNDLES) as Bundle[]).filter((b) => BUNDLES[b].hot);

/** Every hook bundle, each run by its cached loader (`<bundle>.cjs`) from `<bundle>.impl.cjs`. */
export const HOOK_BUNDLES: readonly Bundle[] = Object.keys(BUNDLES) as Bundle[];

/** The source file of a bundle's entry point. */
export const bundleSource = (bundle: Bundle): string => `src/hooks/entries/${bundle}.ts`;

/** The file of `dist/` that the wiring runs for a bundle (its loader). */
export const bundleFile = (bundle: Bundle): string => `${bundle}.cjs`;
