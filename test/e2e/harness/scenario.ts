/**
 * Convenience wrapper: one temp repository + one mock API + runs of the client, disposed together.
 */
import { MAIN, type MockApi, type Script, startMockApi } from "./mock-api.ts";
import {
  type ClaudeRun,
  makeRepo,
  type MakeRepoOptions,
  runClaude,
  type RunClaudeOptions,
  type TempRepo,
} from "./run-claude.ts";

/** Options of {@link startScenario}. */
export interface ScenarioOptions extends MakeRepoOptions {
  /** Files of the temp repository (relative path → content). */
  files?: Record<string, string>;
  /** What the scripted model says. */
  script: Script;
}

/** Per-run options of {@link Scenario.run} (everything of {@link RunClaudeOptions} but repo/api/prompt). */
export type ScenarioRunOptions = Omit<RunClaudeOptions, "repo" | "api" | "prompt">;

/** A repository and a mock API that live as long as one test. */
export interface Scenario {
  /** The temp repository and HOME. */
  readonly repo: TempRepo;
  /** The mock API. */
  readonly api: MockApi;
  /** Runs `claude -p <prompt>` in the repository against the mock. */
  run(prompt: string, options?: ScenarioRunOptions): Promise<ClaudeRun>;
  /** Closes the mock and removes the temp dirs. Safe to call twice. */
  dispose(): Promise<void>;
}

/**
 * Creates the repository, starts the mock, and returns both plus a `run` shortcut.
 *
 * @example
 * let s: Scenario;
 * afterEach(() => s?.dispose());
 * it("denies", async () => {
 *   s = await startScenario({ files, script: { main: [[toolUse("Bash", { command: "rm -rf /" })], [text("ok")]] } });
 *   const run = await s.run("go");
 * });
 */
export async function startScenario(options: ScenarioOptions): Promise<Scenario> {
  const repo = makeRepo(options.files ?? {}, options);
  let api: MockApi;
  try {
    api = await startMockApi(options.script);
  } catch (error) {
    repo.cleanup();
    throw error;
  }
  return {
    repo,
    api,
    run: (prompt, runOptions = {}) => runClaude({ ...runOptions, repo, api, prompt }),
    dispose: async () => {
      await api.close();
      repo.cleanup();
    },
  };
}

/**
 * A multi-line digest of a run for assertion messages: exit code, result, denials, mock notes, the
 * request log (actor, turn, what was served) and the stderr tail.
 *
 * @example
 * expect(run.exitCode, explain(run, api)).toBe(0);
 */
export function explain(run: ClaudeRun, api: MockApi): string {
  const lines = [
    `exit ${String(run.exitCode)} in ${run.durationMs} ms; result: ${JSON.stringify(run.json?.result ?? null)}`,
    `permission_denials: ${JSON.stringify(run.json?.permission_denials ?? null)}`,
    `mock notes: ${api.notes.length === 0 ? "(none)" : api.notes.join(" | ")}`,
    ...api.requests.map((request) => {
      const who = request.kind === "main" ? `${request.actor ?? MAIN} turn ${String(request.turn)}` : request.kind;
      const served = (request.answer ?? [])
        .map((block) =>
          block.type === "text" ? `text(${JSON.stringify(block.text.slice(0, 40))})` : `${block.name}#${block.id}`,
        )
        .join(", ");
      return `  #${request.index} ${request.method} ${request.path} ${who} -> ${served}`;
    }),
    `stderr tail: ${run.stderr.slice(-1500)}`,
  ];
  return lines.join("\n");
}
