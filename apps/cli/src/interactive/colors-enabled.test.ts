import { describe, expect, it } from "vitest";
import { colorsEnabled } from "./colors-enabled";

describe("colorsEnabled", () => {
  it("is on for a terminal, off for a pipe, by default", () => {
    expect(colorsEnabled({}, true)).toBe(true);
    expect(colorsEnabled({}, false)).toBe(false);
  });
  it("honours NO_COLOR (non-empty)", () => {
    expect(colorsEnabled({ NO_COLOR: "1" }, true)).toBe(false);
    expect(colorsEnabled({ NO_COLOR: "" }, true)).toBe(true);
  });
  it("honours FORCE_COLOR, over NO_COLOR and without a terminal; 0 and false turn colors off", () => {
    expect(colorsEnabled({ FORCE_COLOR: "1" }, false)).toBe(true);
    expect(colorsEnabled({ FORCE_COLOR: "3", NO_COLOR: "1" }, false)).toBe(true);
    expect(colorsEnabled({ FORCE_COLOR: "0" }, true)).toBe(false);
    expect(colorsEnabled({ FORCE_COLOR: "false" }, true)).toBe(false);
    expect(colorsEnabled({ FORCE_COLOR: "" }, true)).toBe(true);
  });
});
