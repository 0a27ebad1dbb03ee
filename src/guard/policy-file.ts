/**
 * Reading the compiled policy on the hot path, and the staleness check: every source file is
 * hashed again and every listed directory listed again; any difference means the policy no longer
 * says what the files say. No zod, no YAML: JSON.parse and a structural check.
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { COMPILED_FORMAT, type CompiledPolicy } from "../policy/compiled.ts";

/** sha256 of a file's content, or `null` when it cannot be read (absent). */
export function hashFile(path: string): string | null {
  try {
    return createHash("sha256").update(readFileSync(path)).digest("hex");
  } catch {
    return null;
  }
}

/** The entries of a definitions directory that matter for the policy, sorted. */
export function listDefinitions(dir: string): string[] {
  try {
    return readdirSync(dir)
      .filter((e) => e.endsWith(".yaml") || e.endsWith(".yml") || e.endsWith(".md"))
      .sort();
  } catch {
    return [];
  }
}

export type PolicyRead =
  | { readonly ok: true; readonly policy: CompiledPolicy }
  | { readonly ok: false; readonly kind: "missing" | "invalid" | "stale"; readonly file: string; readonly message: string };

/** Reads and checks a compiled policy file. */
export function readCompiledPolicy(path: string): PolicyRead {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    return { ok: false, kind: "missing", file: path, message: "the compiled policy does not exist" };
  }
  let policy: CompiledPolicy;
  try {
    policy = JSON.parse(text) as CompiledPolicy;
  } catch {
    return { ok: false, kind: "invalid", file: path, message: "the compiled policy is not valid JSON" };
  }
  if (typeof policy !== "object" || policy === null || !Array.isArray(policy.rules) || !Array.isArray(policy.agents) || !Array.isArray(policy.sources) || typeof policy.options !== "object") {
    return { ok: false, kind: "invalid", file: path, message: "the compiled policy has an unexpected shape" };
  }
  if (policy.format !== COMPILED_FORMAT) {
    return { ok: false, kind: "stale", file: path, message: `it was compiled by another lanes version (format ${String(policy.format)}, expected ${COMPILED_FORMAT})` };
  }
  for (const source of policy.sources) {
    if (hashFile(source.path) !== source.sha256) {
      return { ok: false, kind: "stale", file: source.path, message: source.sha256 === null ? "it was created after the policy was compiled" : "it changed after the policy was compiled" };
    }
  }
  for (const listing of policy.listings ?? []) {
    const now = listDefinitions(listing.dir);
    if (now.length !== listing.entries.length || now.some((e, i) => e !== listing.entries[i])) {
      return { ok: false, kind: "stale", file: listing.dir, message: "files were added or removed after the policy was compiled" };
    }
  }
  return { ok: true, policy };
}
