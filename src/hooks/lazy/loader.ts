/**
 * The protocol between the generated hook loader (src/hooks/lazy/hook-loader.ts) and the hot
 * bundles it runs: `__lanesLoad(name)` runs a lazily loaded bundle (the shell analysis, glob
 * compilation, interpreter code analysis and its parsers) with its code cache, and `__lanesProfile` names the kind of call that just ran, so
 * that the loader grows the code caches by the code a new kind of call needs.
 */

declare const __lanesLoad: ((name: string) => unknown) | undefined;

/**
 * Runs the lazily loaded bundle `name` through the hook loader. The bundles are built wrapped for
 * the loader (`IMPL_WRAPPER` in scripts/build/bundles.ts) and cannot run any other way.
 */
export function loadBundle(name: "shell" | "globs" | "yaml" | "formats" | "code" | "python" | "javascript"): unknown {
  if (typeof __lanesLoad !== "function")
    throw new Error(
      `the ${name} bundle runs only through the lanes hook loader; run the hook's \`.cjs\` entry, not its \`.impl.cjs\` bundle`,
    );
  return __lanesLoad(name);
}

/** Tells the loader which kind of call this process judged (a short ASCII key). */
export function reportProfile(profile: string): void {
  (globalThis as { __lanesProfile?: string }).__lanesProfile = profile;
}
