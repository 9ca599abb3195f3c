import { describe, expect, it } from "vitest";
import { flattenText } from "./flatten-text";
import { sanitizeTerminalText } from "./sanitize-terminal-text";

/** What `flattenText` must equal: the regular expressions it spares for plain text. */
const byRegex = (text: string) =>
  sanitizeTerminalText(text)
    .replace(/\s\s+|[^\S ]/g, " ")
    .trim();

describe("flattenText", () => {
  it("equals the regex path for every UTF-16 code unit, alone and between others", () => {
    for (let code = 0; code < 0x10000; code++) {
      const char = String.fromCharCode(code);
      for (const text of [char, `a${char}b`, `a ${char} b`, `${char}${char}x`, `x${char}`, ` ${char}`]) {
        if (flattenText(text) !== byRegex(text))
          expect(flattenText(text), `U+${code.toString(16)}`).toBe(byRegex(text));
      }
    }
  });

  it("equals the regex path for random mixes of spaces, controls and escape sequences", () => {
    const alphabet = [
      " ",
      "\t",
      "\n",
      "a",
      "bc",
      "\u00a0",
      "\u3000",
      "é",
      "\u001b",
      "[",
      "\r",
      "\u2028",
      "😀",
      "]0;",
    ];
    let state = 1;
    const next = () => {
      state = (Math.imul(state, 1103515245) + 12345) >>> 0;
      return state / 4294967296;
    };
    for (let round = 0; round < 50000; round++) {
      let text = "";
      for (let count = Math.floor(next() * 14); count > 0; count--)
        text += alphabet[Math.floor(next() * alphabet.length)];
      if (flattenText(text) !== byRegex(text))
        expect(flattenText(text), JSON.stringify(text)).toBe(byRegex(text));
    }
    expect(flattenText("  fix\n\n the   bug \t")).toBe("fix the bug");
  });
});
