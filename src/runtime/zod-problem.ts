/**
 * Zod issues as one line in the house grammar: `completed_steps.2.expert: expected string,
 * received number`. Used by the CLI-side runtime modules (never on the hot path).
 */
import type { z } from "zod";
import type { Validate } from "./state-file.ts";

type Issue = z.core.$ZodIssue;

/**
 * The issue to report and its full path. For a union, the branch that got furthest (its first
 * issue has the deepest path) names the real problem: an `errors` entry that is an object missing
 * `message` says so, not "expected string".
 */
function leaf(issue: Issue): { path: PropertyKey[]; issue: Issue } {
  if (issue.code !== "invalid_union" || issue.errors.length === 0) return { path: [...issue.path], issue };
  let best: Issue | undefined;
  for (const branch of issue.errors) {
    const first = branch[0];
    if (first !== undefined && (best === undefined || first.path.length > best.path.length)) best = first;
  }
  if (best === undefined) return { path: [...issue.path], issue };
  const inner = leaf(best);
  return { path: [...issue.path, ...inner.path], issue: inner.issue };
}

/** The first problem of a failed parse as `dotted.path: message` (lowercase, no `Invalid input:` preamble). */
export function firstProblem(error: z.ZodError): string {
  const top = error.issues[0];
  if (top === undefined) return "invalid";
  const { path, issue } = leaf(top);
  let message = issue.message.replace(/^Invalid input: /, "").replace(/^Invalid option: /, "");
  if (/received undefined$/.test(message)) message = `missing (${message.replace(/, received undefined$/, "")})`;
  message = message.charAt(0).toLowerCase() + message.slice(1);
  const where = path.map(String).join(".");
  return where === "" ? message : `${where}: ${message}`;
}

/** A {@link Validate} from a zod schema. */
export function validatorOf<S extends z.ZodType>(schema: S): Validate<z.output<S>> {
  return (data) => {
    const parsed = schema.safeParse(data);
    return parsed.success ? { ok: true, value: parsed.data } : { ok: false, problem: firstProblem(parsed.error) };
  };
}
