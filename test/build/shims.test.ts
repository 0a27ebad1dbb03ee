/** The build's shims (scripts/shims/) behave as what they replace. */
import { describe, expect, it } from "vitest";
import { TextDecoder as LazyTextDecoder } from "../../scripts/shims/text-decoder.ts";

describe("lazy TextDecoder", () => {
  it("decodes as the real one, with the options it was made with", () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, 0x41, 0xe2, 0x82, 0xac, 0xff]);
    for (const options of [{ ignoreBOM: true }, {}]) {
      const lazy = new LazyTextDecoder("utf-8", options);
      expect(lazy.decode(bytes)).toBe(new TextDecoder("utf-8", options).decode(bytes));
      expect(lazy.decode(new Uint8Array([0x62]))).toBe("b");
    }
  });
});
