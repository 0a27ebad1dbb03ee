/** The built-in rules, in the order they are evaluated (order does not change decisions). */
import { agentRules } from "./agents.ts";
import { clientRules } from "./clients.ts";
import { gitCodeRules } from "./gitcode.ts";
import { cloudRules } from "./cloud.ts";
import { databaseRules } from "./database.ts";
import { fsRules } from "./fs.ts";
import { gitRules } from "./git.ts";
import { networkRules } from "./network.ts";
import { pathRules } from "./paths.ts";
import { persistenceRules } from "./persistence.ts";
import { publishRules } from "./publish.ts";
import { secretRules } from "./secrets.ts";
import { serviceRules } from "./services.ts";
import { shellRules } from "./shell.ts";
import { systemRules } from "./system.ts";
import type { RuleSpec } from "./types.ts";

export type { RuleSpec } from "./types.ts";

export const BUILTIN_RULES: readonly RuleSpec[] = [
  ...fsRules,
  ...gitRules,
  ...systemRules,
  ...networkRules,
  ...databaseRules,
  ...cloudRules,
  ...serviceRules,
  ...pathRules,
  ...secretRules,
  ...publishRules,
  ...persistenceRules,
  ...shellRules,
  ...agentRules,
  ...clientRules,
  ...gitCodeRules,
];

/** The rule that "writes outside the project" compiles to; its effect comes from the options. */
export const OUTSIDE_PROJECT_RULE: Omit<RuleSpec, "effect"> & { readonly fileEffect: { access: ["write", "delete", "chmod", "chown", "link", "hardlink"]; targets: ["outside-project"] } } = {
  id: "fs.write-outside-project",
  // a link to a place outside the project writes there for whoever follows it
  fileEffect: { access: ["write", "delete", "chmod", "chown", "link", "hardlink"], targets: ["outside-project"] },
  why: "it writes outside the project directory",
  instead: "write inside the project or under a temp directory such as `/tmp`",
};
