/** Hook entry for SubagentStart, SubagentStop and PreCompact (bundled to `dist/events.cjs`). */
import { runEvent } from "../events.ts";
import { runHookEntry } from "./entry.ts";

runHookEntry(runEvent);
