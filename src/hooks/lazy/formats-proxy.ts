/**
 * In the shell analysis bundle of the hot hooks, the readers of Makefiles, justfiles,
 * Taskfiles, Rakefiles and mise tasks (`src/shell/formats/`) are a separate bundle, `formats.impl.cjs`, loaded on first use:
 * only a `make`, `just` or `task` call, or a write of such a file, pays for them. The small readers
 * every `npm` or `git` call needs (package.json, git config) stay in the shell bundle, and YAML has
 * a bundle of its own (yaml-proxy.ts). The build swaps the shell's import of `formats/index.ts` for
 * this proxy; source, tests and the CLI import the module itself. See shell-proxy.ts.
 */
import { loadBundle } from "./loader.ts";
import { span } from "../../io/profile.ts";
import type * as Formats from "../../shell/formats/index.ts";

export { readGitConfig } from "../../shell/formats/git-config.ts";
export { readPackageJson } from "../../shell/formats/package-json.ts";
export { parseYaml } from "../../shell/formats/yaml.ts";

let loaded: typeof Formats | undefined;
const formats = (): typeof Formats => (loaded ??= span("load formats", () => loadBundle("formats") as typeof Formats));

export const planMake: typeof Formats.planMake = (input) => formats().planMake(input);
export const planJust: typeof Formats.planJust = (input) => formats().planJust(input);
export const planTask: typeof Formats.planTask = (input) => formats().planTask(input);
export const readRakefile: typeof Formats.readRakefile = (text) => formats().readRakefile(text);
export const readMiseTasks: typeof Formats.readMiseTasks = (text) => formats().readMiseTasks(text);
