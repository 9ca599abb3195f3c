import { describe, expect, it } from "vitest";
import { EntryChain } from "../__fixtures__/entry-builders";
import type { ContextEditEntry, SessionEntry } from "../session-entry";
import { projectContextEntry } from "./project-context-entry";
import { sessionEntryToContextMessages } from "./session-entry-to-context-messages";

function edit(targetId: string, replacement: ContextEditEntry["replacement"]): ContextEditEntry {
  return {
    type: "context_edit",
    id: "ed",
    parentId: null,
    timestamp: "2024-12-03T14:00:00.000Z",
    targetId,
    replacement,
  };
}

describe("projectContextEntry", () => {
  const chain = new EntryChain();
  const user = chain.user("u1", "original");
  const assistant = chain.assistant("a1");
  const custom = chain.add("cm", {
    type: "custom_message",
    customType: "note",
    content: "hi",
    display: true,
  });

  it("wraps a string replacement in a text block for assistant messages and keeps other fields", () => {
    const [message] = projectContextEntry(assistant, edit("a1", { content: "new" }));
    expect(message).toMatchObject({
      role: "assistant",
      stopReason: "stop",
      content: [{ type: "text", text: "new" }],
    });
  });

  it("keeps a string replacement as a string for user and custom messages", () => {
    expect(projectContextEntry(user, edit("u1", { content: "new" }))[0]).toMatchObject({ content: "new" });
    expect(projectContextEntry(custom, edit("cm", { content: "new" }))[0]).toMatchObject({
      role: "custom",
      content: "new",
    });
  });

  it("omits the entry for a null replacement and does not mutate the entry", () => {
    expect(projectContextEntry(user, edit("u1", null))).toEqual([]);
    expect((user as { message: { content: unknown } }).message.content).toBe("original");
  });
});

describe("sessionEntryToContextMessages", () => {
  it("fills null content and skips empty branch summaries", () => {
    const chain = new EntryChain();
    const system = chain.add("s", { type: "message", message: { role: "system", content: null } });
    const user = chain.add("u", { type: "message", message: { role: "user", content: null } });
    const empty = chain.add("b", { type: "branch_summary", fromId: "root", summary: "" });
    expect(sessionEntryToContextMessages(system)[0]).toMatchObject({ content: "" });
    expect(sessionEntryToContextMessages(user)[0]).toMatchObject({ content: [] });
    expect(sessionEntryToContextMessages(empty)).toEqual([]);
  });

  it("makes summary messages with the entry time in milliseconds", () => {
    const entry = {
      type: "branch_summary",
      id: "b",
      parentId: null,
      timestamp: "2024-12-03T14:00:01.000Z",
      fromId: "x",
      summary: "S",
    } as SessionEntry;
    expect(sessionEntryToContextMessages(entry)).toEqual([
      { role: "branchSummary", summary: "S", fromId: "x", timestamp: Date.parse("2024-12-03T14:00:01.000Z") },
    ]);
  });
});

describe("projectContextEntry with a hostile edit", () => {
  it("does not throw for an edit loaded without a replacement field", () => {
    const chain = new EntryChain();
    const assistant = chain.assistant("a1");
    const user = chain.user("u1");
    const broken = { ...edit("a1", null), replacement: undefined } as unknown as ContextEditEntry;
    expect(() => projectContextEntry(assistant, broken)).not.toThrow();
    expect(() => projectContextEntry(user, { ...broken, targetId: "u1" })).not.toThrow();
  });
});
