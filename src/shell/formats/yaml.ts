/**
 * YAML for the shell analysis, for the only runner file written in it (a Taskfile). In the hot
 * hook bundles this module is swapped for `src/hooks/lazy/yaml-proxy.ts`, which loads the `yaml`
 * package as its own bundle (`yaml.impl.cjs`) on the first `task` call or Taskfile write: no other
 * call pays for it (scripts/build.ts). Source, tests and the CLI import it as it is.
 */
import { parse } from "yaml";

/** The document of `text` as plain data, or `undefined` when it is not valid YAML. */
export function parseYaml(text: string): unknown {
  try {
    // no custom tags, no merge keys beyond YAML 1.2's core schema, a bound on aliases
    return parse(text, { schema: "core", maxAliasCount: 100, prettyErrors: false });
  } catch {
    return undefined;
  }
}
