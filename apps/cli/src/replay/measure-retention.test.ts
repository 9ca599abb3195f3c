import type { AgentMessage } from "@arbor/agent-loop";
import { describe, expect, it } from "vitest";
import { extractRetentionFacts, measureRetention, visibleText } from "./measure-retention";

const messages = [
  { role: "user", content: "Fix issue 4711 in the API. Do not touch the migrations folder.", timestamp: 0 },
  {
    role: "assistant",
    content: [{ type: "toolCall", id: "c1", name: "read", arguments: { path: "src/api/routes.ts" } }],
    timestamp: 0,
  },
  {
    role: "toolResult",
    toolCallId: "c1",
    toolName: "read",
    content: [{ type: "text", text: "code" }],
    isError: false,
    timestamp: 0,
  },
] as unknown as AgentMessage[];

describe("retention", () => {
  it("extracts paths from tool calls, identifiers and constraints from user prompts", () => {
    expect(extractRetentionFacts(messages)).toEqual({
      paths: ["src/api/routes.ts"],
      identifiers: ["4711"],
      constraints: ["Do not touch the migrations folder"],
    });
  });

  it("counts a fact visible when it appears verbatim (constraints: 60% of their words)", () => {
    const facts = extractRetentionFacts(messages);
    expect(measureRetention(facts, visibleText(messages)).score).toBe(1);
    const summary = "Goal: issue 4711. Read src/api/routes.ts. Constraint: never touch migrations folder.";
    expect(measureRetention(facts, summary)).toMatchObject({ total: 3, visible: 3 });
    const lost = measureRetention(facts, "Read src/api/routes.ts");
    expect(lost).toMatchObject({ visible: 1, missing: ["4711", "Do not touch the migrations folder"] });
    expect(lost.score).toBeCloseTo(1 / 3);
  });
});
