/** PostToolUse hook entry (bundled to `dist/post-tool-use.impl.cjs`, run by the cached loader `dist/post-tool-use.cjs`): records artifacts, touches and conflicts. */
import { runPostToolUse } from "../events/post-tool-use.ts";
import { runHookEntry } from "./entry.ts";

runHookEntry(runPostToolUse);
