import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { EntryChain, header } from "../__fixtures__/entry-builders";
import { openSessionStore } from "../open-session-store";
import type { SessionEntry } from "../session-entry";
import { sessionEntryToContextMessages } from "./session-entry-to-context-messages";

/** A `message` entry whose `message` field is whatever a hostile file holds. */
function brokenMessageEntry(id: string, parentId: string | null, message: unknown): SessionEntry {
  return {
    type: "message",
    id,
    parentId,
    timestamp: "2024-12-03T14:00:30.000Z",
    message,
  } as unknown as SessionEntry;
}

describe("sessionEntryToContextMessages on structurally broken message entries", () => {
  it.each([
    ["a null message", null],
    ["a missing message", undefined],
    ["a string message", "just text"],
    ["a number message", 42],
    ["a boolean message", true],
  ])("%s contributes nothing and does not throw", (_name, message) => {
    expect(sessionEntryToContextMessages(brokenMessageEntry("b1", null, message))).toEqual([]);
  });

  it.each(["user", "assistant", "toolResult"])(
    "a %s message without content contributes a copy with empty content blocks",
    (role) => {
      const stored = { role, toolCallId: "call-1", timestamp: 5 };
      const entry = brokenMessageEntry("b1", null, stored);
      const [message] = sessionEntryToContextMessages(entry);
      expect(message).toEqual({ ...stored, content: [] });
      expect(message).not.toBe(stored);
      expect(stored).not.toHaveProperty("content");
    },
  );

  it("a message of another role without content passes through as stored", () => {
    const stored = { role: "bashExecution", command: "ls", output: "", timestamp: 5 };
    const [message] = sessionEntryToContextMessages(brokenMessageEntry("b1", null, stored));
    expect(message).toBe(stored);
  });

  it("a system message with null content becomes an empty string (a copy)", () => {
    const stored = { role: "system", content: null, timestamp: 5 };
    const [message] = sessionEntryToContextMessages(brokenMessageEntry("b1", null, stored));
    expect(message).toEqual({ role: "system", content: "", timestamp: 5 });
    expect(stored.content).toBeNull();
  });
});

describe("a session file with broken message entries", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "arbor-broken-messages-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("opens, reports the broken entries, and projects the others", () => {
    const chain = new EntryChain();
    chain.user("u1", "first question");
    chain.entries.push(brokenMessageEntry("b1", "u1", null));
    chain.entries.push(brokenMessageEntry("b2", "b1", "a bare string"));
    chain.entries.push(
      brokenMessageEntry("b3", "b2", {
        role: "toolResult",
        toolCallId: "c1",
        toolName: "read",
        isError: false,
      }),
    );
    chain.add("a1", {
      type: "message",
      message: {
        role: "assistant",
        content: [{ type: "text", text: "the answer" }],
        api: "anthropic-messages",
        provider: "anthropic",
        model: "claude-x",
        stopReason: "stop",
      },
    });
    (chain.entries[4] as { parentId: string }).parentId = "b3";
    const path = join(dir, "broken.jsonl");
    const lines = [header(), ...chain.entries].map((entry) => JSON.stringify(entry));
    writeFileSync(path, `${lines.join("\n")}\n`);
    const before = readFileSync(path);

    const store = openSessionStore(path);
    try {
      const projection = store.getProjection();
      // The invalid entries stay in the file and the tree but are left out of the branch.
      expect(projection.entries.map((entry) => entry.sourceEntry.id)).toEqual(["u1", "b3", "a1"]);
      expect(projection.messages.map((message) => message.role)).toEqual(["user", "toolResult", "assistant"]);
      expect(projection.messages[1]).toMatchObject({ toolCallId: "c1", content: [] });
      const reported = store.issues
        .filter((issue) => issue.code === "SESSION_ENTRY_INVALID")
        .map((issue) => issue.entryId);
      // A tool result may omit its content (pi writes such entries): only the first two are invalid.
      expect(reported).toEqual(["b1", "b2"]);
    } finally {
      store.close();
    }
    expect(readFileSync(path).equals(before)).toBe(true);
  });
});
