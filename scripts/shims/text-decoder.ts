/**
 * Injected into the shell bundle in place of the global `TextDecoder` (scripts/build/bundles.ts): unbash
 * builds one decoder when it loads, and Node loads its encoding module and an ICU converter for it,
 * a tenth of a millisecond of every Bash hook call; the real decoder is now made when a command
 * first decodes `\xHH` bytes.
 */
import type { TextDecoder as RealDecoder } from "node:util";

class LazyTextDecoder {
  readonly #args: ConstructorParameters<typeof RealDecoder>;
  #real: RealDecoder | undefined;

  constructor(...args: ConstructorParameters<typeof RealDecoder>) {
    this.#args = args;
  }

  decode(...input: Parameters<RealDecoder["decode"]>): string {
    this.#real ??= new globalThis.TextDecoder(...this.#args);
    return this.#real.decode(...input);
  }
}

export { LazyTextDecoder as TextDecoder };
