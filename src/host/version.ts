/** The package version, injected by the bundler; `dev` when running from source. */
export const LANES_VERSION: string = typeof __LANES_VERSION__ === "string" ? __LANES_VERSION__ : "dev";
declare const __LANES_VERSION__: string | undefined;
