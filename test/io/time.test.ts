import { describe, expect, it } from "vitest";
import { isoTime } from "../../src/io/time.ts";

describe("isoTime", () => {
  it("writes what toISOString writes", () => {
    const times = [
      0,
      1,
      999,
      1_000,
      951_782_400_000,
      Date.UTC(2026, 10, 26, 10, 16, 6, 7),
      Date.UTC(9999, 11, 31, 23, 59, 59, 999),
    ];
    for (let i = 0; i < 2000; i++) times.push(Math.floor(Math.random() * 253_402_300_799_999));
    for (const t of times) expect(isoTime(new Date(t)), String(t)).toBe(new Date(t).toISOString());
  });

  it("leaves years outside 0-9999, and invalid dates, to toISOString", () => {
    expect(isoTime(new Date(Date.UTC(10_000, 0, 1)))).toBe("+010000-01-01T00:00:00.000Z");
    expect(isoTime(new Date(-62_198_755_200_000))).toBe(new Date(-62_198_755_200_000).toISOString());
    expect(() => isoTime(new Date(Number.NaN))).toThrow(RangeError);
  });
});
