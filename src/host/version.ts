/** The package version, injected by the bundler; `dev` when running from source. */
export const LANES_VERSION: string = typeof __LANES_VERSION__ === "string" ? __LANES_VERSION__ : "dev";
declare const __LANES_VERSION__: string | undefined;

/** The published package name (scoped, so that nobody else's `lanes` is ever installed); the bin stays `lanes`. */
export const PACKAGE_NAME = "@lanes-dev/lanes";

/**
 * How a user runs `lanes init` in a repository where lanes is a dev dependency: `--no-install`, so
 * npx never fetches a package named `lanes` from the registry where it is not installed.
 */
export const INIT_COMMAND = "npx --no-install lanes init";
