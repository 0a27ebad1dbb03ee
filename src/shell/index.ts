/** The shell module: the only code in lanes that looks at shell text. */
export { analyzeShell, analyzeStored, type StoredChange } from "./analyze.ts";
export { argView } from "./argv.ts";
export { fileEffects } from "./effects.ts";
export { flagWrites } from "./flag-writes.ts";
export { linkCopies, linkEffects } from "./links.ts";
export { networkSends } from "./sends.ts";
export { statementTexts } from "./statements.ts";
export { UNREPRESENTABLE_CODES, UNREPRESENTABLE_MESSAGES, type UnrepresentableCode } from "./unrepresentable.ts";
export type * from "./types.ts";
