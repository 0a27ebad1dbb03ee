/**
 * End-to-end harness: a scripted Messages API ({@link startMockApi}) and a runner for the real
 * `claude` client in throwaway repositories ({@link makeRepo}, {@link runClaude}).
 * See `README.md` in this folder for usage and the observed client behaviour.
 */
export * from "./mock-api.ts";
export * from "./run-claude.ts";
export * from "./scenario.ts";
