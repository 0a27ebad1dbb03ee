/** PreToolUse hook entry (bundled to `dist/pre-tool-use.impl.cjs`, run by the cached loader `dist/pre-tool-use.cjs`). */
import { runPreToolUse } from "../events/pre-tool-use.ts";
import { runHookEntry } from "./entry.ts";

runHookEntry(runPreToolUse);
