/** Hook entry for SubagentStart, SubagentStop, PreCompact, TaskCreated and TaskCompleted (bundled to `dist/events.cjs`). */
import { runEvent } from "../events.ts";
import { runHookEntry } from "./entry.ts";

runHookEntry(runEvent);
