/**
 * The files build and task runners read their code from, parsed into what runs: package.json
 * scripts (and deno.json tasks), Makefiles, justfiles, Taskfiles. Pure functions of a file's
 * text, cached by content (`cache.ts`).
 */
export { readPackageJson, type PackageJson, type PackageScript } from "./package-json.ts";
export { planMake, type MakeInput, type MakePlan, type RecipeLine, type RecipeRun } from "./makefile.ts";
export { readGitConfig } from "./git-config.ts";
export { planJust, type JustInput, type JustPlan, type JustRun } from "./justfile.ts";
export { planTask, type TaskInput, type TaskPlan } from "./taskfile.ts";
export { parseYaml } from "./yaml.ts";
export { readRakefile, type RakeTask, type Rakefile } from "./rakefile.ts";
export { readMiseTasks, type MiseTask } from "./mise.ts";
