import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createSessionStore } from "@arbor/session-store";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { summarizeSessionFile } from "./summarize-session-file";

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "arbor-summary-"));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("summarizeSessionFile", () => {
  it("reads id, folder, start, last activity, entries, size, the latest name and model, the first message", () => {
    const store = createSessionStore({ cwd: "/work/p", dir });
    store.appendMessage({
      role: "user",
      content: "héllo   there\nfriend",
      timestamp: Date.parse("2026-01-01T10:00:00Z"),
    });
    store.appendSessionInfo("first name");
    store.appendModelChange("anthropic", "claude-haiku-4-5");
    store.appendSessionInfo("second name");
    store.appendMessage({ role: "user", content: "again", timestamp: Date.parse("2026-01-01T11:00:00Z") });
    const file = store.path as string;
    const id = store.sessionId;
    store.close();
    const summary = summarizeSessionFile(file);
    expect(summary).toMatchObject({
      path: file,
      id,
      cwd: "/work/p",
      name: "second name",
      firstMessage: "héllo there friend",
      entries: 5,
      bytes: fs.statSync(file).size,
      model: "anthropic/claude-haiku-4-5",
    });
    const lines = fs.readFileSync(file, "utf8").trimEnd().split("\n");
    expect(summary?.started.toISOString()).toBe(JSON.parse(lines[0] as string).timestamp);
    expect(summary?.lastActivity.toISOString()).toBe(JSON.parse(lines.at(-1) as string).timestamp);
  });

  it("finds the model of the last assistant message across 1 MiB chunks", () => {
    const file = path.join(dir, "s.jsonl");
    const header = {
      type: "session",
      version: 3,
      id: "s1",
      timestamp: "2026-01-01T00:00:00.000Z",
      cwd: "/x",
    };
    const filler = {
      type: "custom",
      id: "c",
      parentId: null,
      timestamp: "2026-01-01T00:00:01.000Z",
      customType: "x",
      data: "é".repeat(700_000),
    };
    const assistant = {
      type: "message",
      id: "m",
      parentId: "c",
      timestamp: "2026-01-02T00:00:00.000Z",
      message: {
        role: "assistant",
        content: [{ type: "toolCall", arguments: { model: "fake" } }],
        provider: "openai",
        model: "gpt-4o",
      },
    };
    fs.writeFileSync(
      file,
      [header, filler, filler, assistant].map((line) => JSON.stringify(line)).join("\n"),
    );
    expect(summarizeSessionFile(file)).toMatchObject({ id: "s1", entries: 3, model: "openai/gpt-4o" });
  });

  it("skips files that are not sessions", () => {
    const file = path.join(dir, "note.jsonl");
    fs.writeFileSync(file, '{"hello":1}\n');
    expect(summarizeSessionFile(file)).toBeUndefined();
    expect(summarizeSessionFile(path.join(dir, "missing.jsonl"))).toBeUndefined();
  });
});
