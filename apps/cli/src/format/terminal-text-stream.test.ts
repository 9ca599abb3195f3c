import { describe, expect, it } from "vitest";
import { TerminalTextStream } from "./terminal-text-stream";

const ESC = "\u001b";

describe("TerminalTextStream", () => {
  it("removes sequences split across chunks whole, wherever the split falls", () => {
    const text = `before${ESC}]52;c;cm0gLXJm\u0007mid${ESC}]0;title${ESC}\\x${ESC}[38;5;1mafter\u009b2Jend`;
    for (let size = 1; size <= 8; size++) {
      const stream = new TerminalTextStream();
      let out = "";
      for (let index = 0; index < text.length; index += size)
        out += stream.push(text.slice(index, index + size));
      out += stream.flush();
      expect(out).toBe("beforemidxafterend");
    }
  });

  it("returns plain text at once and flushes a cut-off sequence as nothing", () => {
    const stream = new TerminalTextStream();
    expect(stream.push("hello ")).toBe("hello ");
    expect(stream.push(`world${ESC}]0;never ends`)).toBe("world");
    expect(stream.flush()).toBe("");
    expect(stream.push("next")).toBe("next");
  });
});
