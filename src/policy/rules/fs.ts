/** Filesystem destruction: recursive or forced deletes of broad targets, system paths, devices. */
import type { RuleSpec } from "./types.ts";

export const fsRules: readonly RuleSpec[] = [
  {
    id: "fs.delete-root",
    effect: "deny",
    delete: { targets: ["root"] },
    why: "it deletes the whole filesystem from `/`",
    instead: "delete the specific directory you mean inside the project, e.g. `rm -rf ./build`",
  },
  {
    id: "fs.delete-home",
    effect: "deny",
    delete: { targets: ["home"] },
    why: "it deletes the home directory and everything in it",
    instead: "name the specific file or directory under the project that should go",
  },
  {
    id: "fs.delete-project-root",
    effect: "deny",
    delete: { targets: ["project-root"] },
    why: "it deletes the whole project, uncommitted work included",
    instead: "delete the generated directory you mean, e.g. `rm -rf ./dist` or `rm -rf node_modules`",
  },
  {
    id: "fs.delete-parent",
    effect: "deny",
    delete: { targets: ["parent"] },
    why: "it deletes a directory that contains the project",
    instead: "stay inside the project and delete only the path you mean",
  },
  {
    id: "fs.delete-broad-glob",
    effect: "deny",
    delete: { targets: ["broad-glob"] },
    why: "the glob expands to everything in `/`, the home directory, the project root or a parent of it",
    instead: "list the exact paths to delete, or use a glob inside a subdirectory such as `./tmp/*`",
  },
  {
    id: "fs.delete-system",
    effect: "deny",
    delete: { targets: ["system"] },
    why: "it deletes operating-system files",
    instead: "leave system files to the system's package manager, or ask the user to do it",
  },
  {
    id: "fs.delete-dynamic",
    effect: "ask",
    delete: { targets: [], dynamic: true },
    why: "it deletes recursively or forcibly a path that is only known when the command runs",
    instead: "write the path out literally (e.g. `rm -rf ./build`) so it can be checked",
  },
  {
    id: "fs.delete-filtered-broad",
    effect: "ask",
    delete: { targets: ["root", "home", "parent"], filtered: true },
    why: "it deletes every matching file under `/`, the home directory or a parent of the project",
    instead: "search inside the project, e.g. `find ./build -name '*.tmp' -delete`",
  },
  {
    id: "fs.chmod-recursive-system",
    effect: "deny",
    fileEffect: { access: ["chmod", "chown"], targets: ["root", "system", "home"], recursive: true },
    why: "it changes the permissions or owner of a whole system tree or the home directory",
    instead: "change only the project files that need it, e.g. `chmod +x ./scripts/build.sh`",
  },
  {
    id: "fs.write-system",
    effect: "deny",
    fileEffect: { access: ["write"], targets: ["system"] },
    why: "it overwrites operating-system files",
    instead: "write inside the project, or ask the user to change system configuration",
  },
  {
    id: "fs.write-device",
    effect: "deny",
    fileEffect: { access: ["write", "delete"], targets: ["device"] },
    why: "it writes straight to a disk device and destroys its filesystem",
    instead: "write to a file image inside the project instead, or ask the user",
  },
];
