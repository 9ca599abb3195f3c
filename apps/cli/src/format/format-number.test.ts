import { describe, expect, it } from "vitest";
import { formatInteger } from "./format-number";

describe("formatInteger", () => {
  it("groups thousands with commas, as toLocaleString('en-US') does", () => {
    for (const value of [
      0,
      7,
      999,
      1000,
      12345,
      100000,
      1234567,
      -1,
      -1000,
      -987654321,
      12.5,
      12.4,
      2 ** 53 + 2,
    ]) {
      expect(formatInteger(value)).toBe(Math.round(value).toLocaleString("en-US"));
    }
    expect(formatInteger(1_000_002)).toBe("1,000,002");
  });
});
