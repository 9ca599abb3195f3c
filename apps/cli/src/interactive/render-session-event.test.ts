import type { AgentSessionEvent } from "@arbor/runtime";
import { describe, expect, it } from "vitest";
import { SessionEventRenderer } from "./render-session-event";
import { createTerminalStyle } from "./terminal-style";

const ESC = "\u001b";
/** A hostile string: clipboard write, title change, screen clear, reset, 8-bit CSI, bidi override. */
const HOSTILE = `A${ESC}]52;c;cm0gLXJm\u0007B${ESC}]0;pwned${ESC}\\C${ESC}[2J${ESC}[8mD${ESC}c\u009b2JE\u202eF\rG`;

function render(events: unknown[]): string {
  let output = "";
  const renderer = new SessionEventRenderer({
    write: (text) => {
      output += text;
    },
    style: createTerminalStyle(true),
    columns: 200,
    spinners: false,
  });
  for (const event of events) renderer.handle(event as AgentSessionEvent);
  return output;
}

/** Escape sequences other than SGR styling, C1 controls, bidi overrides, carriage returns, bells. */
function dangerous(output: string): string[] {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: looking for control characters
  return output.match(/\u001b(?!\[[0-9;]*m)|[\u0080-\u009f\u202a-\u202e\u2066-\u2069\r\u0007]/g) ?? [];
}

describe("SessionEventRenderer with hostile strings", () => {
  it("makes every string of every event inert and keeps its own colors", () => {
    const output = render([
      { type: "message_update", assistantMessageEvent: { type: "text-delta", delta: HOSTILE } },
      { type: "message_update", assistantMessageEvent: { type: "text-delta", delta: `${ESC}` } },
      { type: "message_update", assistantMessageEvent: { type: "text-delta", delta: "]0;split\u0007" } },
      {
        type: "message_end",
        message: { role: "assistant", stopReason: "error", errorMessage: HOSTILE, content: [] },
      },
      { type: "tool_execution_start", toolName: `bash${HOSTILE}`, args: { command: HOSTILE } },
      {
        type: "tool_execution_end",
        toolName: "bash",
        isError: false,
        result: { content: [{ type: "text", text: `${HOSTILE}\nsecond line` }] },
      },
      {
        type: "tool_execution_end",
        toolName: "bash",
        isError: true,
        result: { content: [{ type: "text", text: HOSTILE }] },
      },
      { type: "session_error", error: new Error(HOSTILE) },
      { type: "hook_error", extensionId: HOSTILE, hookName: HOSTILE, error: new Error(HOSTILE) },
      { type: "compaction_fallback", errorMessage: HOSTILE },
      { type: "compaction_end", reason: "manual", errorMessage: HOSTILE },
      {
        type: "model_select",
        model: { provider: HOSTILE, id: HOSTILE },
        previousModel: undefined,
        source: "set",
      },
    ]);
    expect(dangerous(output)).toEqual([]);
    expect(output).toContain("ABCDEFG");
    expect(output).toContain(`${ESC}[31m✗ ABCDEFG${ESC}[39m`);
    expect(output).toContain(`${ESC}[36m● bashABCDEFG(ABCDEFG)${ESC}[39m`);
  });

  it("keeps only styling in lines printed by commands", () => {
    let output = "";
    const renderer = new SessionEventRenderer({
      write: (text) => {
        output += text;
      },
      style: createTerminalStyle(true),
      columns: 80,
      spinners: false,
    });
    renderer.line(`${ESC}[1mName${ESC}[22m ${HOSTILE}`);
    expect(output).toBe(`${ESC}[1mName${ESC}[22m ABC${ESC}[8mDEFG\n`);
  });
});
