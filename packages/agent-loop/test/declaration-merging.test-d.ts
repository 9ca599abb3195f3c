import type { AgentMessage } from "@arbor/agent-loop";
import { describe, expectTypeOf, it } from "vitest";

interface NoteMessage {
  role: "note";
  text: string;
  timestamp: number;
}

declare module "@arbor/agent-loop" {
  interface CustomAgentMessages {
    note: NoteMessage;
  }
}

describe("CustomAgentMessages declaration merging", () => {
  it("adds the declared role to AgentMessage under the package's real name", () => {
    const note: AgentMessage = { role: "note", text: "remember", timestamp: 1 };
    expectTypeOf<Extract<AgentMessage, { role: "note" }>>().toEqualTypeOf<NoteMessage>();
    expectTypeOf(note).toExtend<AgentMessage>();
    // @ts-expect-error a role nobody declared is still rejected
    const unknown: AgentMessage = { role: "memo", text: "x", timestamp: 1 };
    expectTypeOf(unknown).toExtend<AgentMessage>();
  });
});
