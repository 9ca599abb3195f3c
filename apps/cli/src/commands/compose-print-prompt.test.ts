import { describe, expect, it } from "vitest";
import { composePrintPrompt } from "./compose-print-prompt";

describe("composePrintPrompt", () => {
  it("uses the prompt alone when nothing is piped (a terminal, or an empty pipe)", () => {
    expect(composePrintPrompt("fix it", undefined)).toBe("fix it");
    expect(composePrintPrompt("fix it", "")).toBe("fix it");
    expect(composePrintPrompt("fix it", " \n\n")).toBe("fix it");
  });

  it("uses the piped text as the prompt when there is no -p PROMPT", () => {
    expect(composePrintPrompt(undefined, "explain this\n")).toBe("explain this\n");
  });

  it("attaches piped text after the prompt inside <stdin> lines", () => {
    expect(composePrintPrompt("summarize", "line 1\nline 2")).toBe(
      "summarize\n\n<stdin>\nline 1\nline 2\n</stdin>",
    );
    expect(composePrintPrompt("summarize", "line 1\n")).toBe("summarize\n\n<stdin>\nline 1\n</stdin>");
  });

  it("is a usage error with neither", () => {
    expect(() => composePrintPrompt(undefined, undefined)).toThrow(
      expect.objectContaining({ code: "CLI_USAGE", message: expect.stringContaining("pipe one in") }),
    );
    expect(() => composePrintPrompt(undefined, "  \n")).toThrow(
      expect.objectContaining({
        code: "CLI_USAGE",
        message: expect.stringContaining("the piped input was empty"),
      }),
    );
  });
});
