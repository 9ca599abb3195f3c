import { describe, expect, it } from "vitest";
import { flatCharacterKind } from "./flat-character-kind";

// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters sanitizing removes
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

describe("flatCharacterKind", () => {
  it("says control for what sanitizing removes, whitespace for the rest of \\s, kept otherwise", () => {
    for (let code = 0; code <= 0xffff; code++) {
      const char = String.fromCharCode(code);
      const expected = CONTROL.test(char) ? 2 : /\s/.test(char) ? 1 : 0;
      expect(flatCharacterKind(code), code.toString(16)).toBe(expected);
    }
  });
});
