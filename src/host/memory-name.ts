/**
 * Memory file names, zod-free so the guard's hot path can read them (`lane.memory-not-own`):
 * `{task}--{agent}-memory.md`, both parts {@link fileKey}-encoded, so two tasks or agents never
 * share a file (the encoding is injective; `--` never occurs inside a part).
 */
import { joinKeys, splitKeys } from "./ids.ts";

/** The file name of the memory file of `agent` for `taskId`. */
export function memoryFileName(taskId: string, agent: string): string {
  return `${joinKeys(taskId, agent)}-memory.md`;
}

/** The task and agent a memory file name stands for, or undefined when the name is not one lanes writes. */
export function parseMemoryFileName(name: string): { readonly taskId: string; readonly agent: string } | undefined {
  if (!name.endsWith("-memory.md")) return undefined;
  const ids = splitKeys(name.slice(0, -"-memory.md".length));
  return ids?.length === 2 ? { taskId: ids[0]!, agent: ids[1]! } : undefined;
}
