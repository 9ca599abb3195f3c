import { describe, expect, it } from "vitest";
import { sanitizeTerminalText } from "./sanitize-terminal-text";

const ESC = "\u001b";

describe("sanitizeTerminalText", () => {
  it("keeps plain text, tabs, newlines and non-ASCII text", () => {
    const text = "line one\n\tindented — ünïcödé 中文 😀 עברית\n";
    expect(sanitizeTerminalText(text)).toBe(text);
  });

  it.each([
    ["OSC 52 clipboard write (BEL)", `${ESC}]52;c;cm0gLXJmIH4=\u0007`],
    ["OSC 52 clipboard write (ST)", `${ESC}]52;c;cm0gLXJmIH4=${ESC}\\`],
    ["window title", `${ESC}]0;pwned${ESC}\\`],
    ["hyperlink", `${ESC}]8;;https://evil.example${ESC}\\`],
    ["screen clear", `${ESC}[2J${ESC}[3J${ESC}[H`],
    ["terminal reset", `${ESC}c`],
    ["alternate screen and hidden cursor", `${ESC}[?1049h${ESC}[?25l`],
    ["cursor save, up and restore", `${ESC}7${ESC}[5A${ESC}8`],
    ["colors and concealed text", `${ESC}[8m${ESC}[38;5;196m${ESC}[0m`],
    ["charset switch and screen fill", `${ESC}(0${ESC}#8`],
    ["device status query", `${ESC}[6n`],
    ["DCS", `${ESC}Pq#0;2;0;0;0${ESC}\\`],
    ["APC", `${ESC}_payload${ESC}\\`],
    ["8-bit CSI", "\u009b2J"],
    ["8-bit OSC", "\u009d0;title\u009c"],
    ["C1 controls", "\u0085\u008d\u0090\u009c"],
    ["bell, backspace, vertical tab, form feed, shift out, delete", "\u0007\b\u000b\f\u000e\u007f"],
    ["lone carriage return", "\r"],
    ["bidi overrides and isolates", "\u202e\u202a\u202b\u202c\u202d\u2066\u2067\u2068\u2069"],
  ])("removes %s whole", (_name, sequence) => {
    expect(sanitizeTerminalText(`before${sequence}after`)).toBe("beforeafter");
  });

  it("removes an unterminated string sequence to the end, and a final lone escape", () => {
    expect(sanitizeTerminalText(`before${ESC}]0;title that never ends`)).toBe("before");
    expect(sanitizeTerminalText(`before${ESC}`)).toBe("before");
    // ESC + a letter is a complete escape sequence to a terminal: both go.
    expect(sanitizeTerminalText(`a${ESC}Db`)).toBe("ab");
  });

  it("turns CRLF into LF and drops a carriage return that would overwrite the line", () => {
    expect(sanitizeTerminalText("a\r\nb\rc")).toBe("a\nbc");
  });

  it("keeps SGR styling only when asked, and still removes everything else", () => {
    const styled = `${ESC}[31mred${ESC}[39m ${ESC}]0;x\u0007${ESC}[2Jend`;
    expect(sanitizeTerminalText(styled, { keepStyles: true })).toBe(`${ESC}[31mred${ESC}[39m end`);
    expect(sanitizeTerminalText(styled)).toBe("red end");
  });

  it("cannot be tricked into leaving an escape by splitting or nesting sequences", () => {
    expect(sanitizeTerminalText(`${ESC}${ESC}]0;x\u0007`)).toBe("");
    expect(sanitizeTerminalText(`${ESC}[${ESC}]52;c;x\u0007`)).toBe("");
    // Each half of a sequence split across two writes is inert on its own.
    expect(sanitizeTerminalText(`text${ESC}`) + sanitizeTerminalText("]0;title\u0007")).toBe("text]0;title");
    expect(sanitizeTerminalText("a\u001b\u001b\u001b")).toBe("a");
  });
});
