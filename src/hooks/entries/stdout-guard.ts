/**
 * Imported first by every hook entry: anything a dependency logs through `console` goes to stderr,
 * because a stray line on stdout makes Claude Code ignore the hook's JSON (it fails open).
 */
const toStderr = (...args: unknown[]): void => {
  process.stderr.write(`${args.map((a) => (typeof a === "string" ? a : JSON.stringify(a))).join(" ")}\n`);
};
console.log = toStderr;
console.info = toStderr;
console.debug = toStderr;
console.warn = toStderr;
console.error = toStderr;
