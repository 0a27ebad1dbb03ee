/** Hook entry of the less frequent events (the `events` bundle of src/host/events.ts; bundled to `dist/events.cjs`). */
import { runEvent } from "../events/lifecycle.ts";
import { runHookEntry } from "./entry.ts";

runHookEntry(runEvent);
