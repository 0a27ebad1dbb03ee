/** Hook entry of the task channel and validation on the way out (bundled to `dist/tasks.cjs`): SubagentStart, SubagentStop, TaskCreated, TaskCompleted, PostToolUse of Agent/TaskCreate/TaskUpdate. */
import { runTaskChannel } from "../events/task-channel.ts";
import { runHookEntry } from "./entry.ts";

runHookEntry(runTaskChannel);
