/**
 * In the shell analysis bundle of the hot hooks, the YAML reader (`src/shell/formats/yaml.ts`, the
 * `yaml` package) is a separate bundle, `yaml.impl.cjs`, loaded on first use: only a `task` call
 * or a write of a Taskfile pays for it. The build swaps the shell's import of `formats/yaml.ts`
 * for this proxy; source, tests and the CLI import the module itself. See shell-proxy.ts.
 */
import { loadBundle } from "./loader.ts";
import { span } from "../../io/profile.ts";
import type * as Yaml from "../../shell/formats/yaml.ts";

let loaded: typeof Yaml | undefined;

export const parseYaml: typeof Yaml.parseYaml = (text) =>
  (loaded ??= span("load yaml", () => loadBundle("yaml") as typeof Yaml)).parseYaml(text);
