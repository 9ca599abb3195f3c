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

/**
 * The summary as the file reads whole (the oracle for the chunked byte scan): lines cut at newlines,
 * white-space-only lines skipped, each line parsed as UTF-8 JSON when it is looked at.
 */
function wholeFileSummary(file: string) {
  const parse = (line: string | undefined) => {
    if (line === undefined) return undefined;
    try {
      const value = JSON.parse(
        Buffer.from(line, "latin1")
          .toString("utf8")
          .replace(/^\uFEFF/, ""),
      );
      return value && typeof value === "object" ? value : undefined;
    } catch {
      return undefined;
    }
  };
  const lines = fs
    .readFileSync(file)
    .toString("latin1")
    .split("\n")
    .filter((line) => line.trim() !== "");
  const header = parse(lines[0]);
  if (header?.type !== "session" || typeof header.id !== "string") return undefined;
  const entries = lines.slice(1).map((line) => ({ line, value: parse(line) }));
  const modelOf = (
    value:
      | {
          type?: unknown;
          provider?: unknown;
          modelId?: unknown;
          message?: { provider?: unknown; model?: unknown };
        }
      | undefined,
  ) =>
    value?.type === "model_change" && typeof value.provider === "string" && typeof value.modelId === "string"
      ? `${value.provider}/${value.modelId}`
      : typeof value?.message?.provider === "string" && typeof value.message.model === "string"
        ? `${value.message.provider}/${value.message.model}`
        : undefined;
  const candidates = entries.filter(
    ({ line }) => line.includes('"model_change"') || line.includes('"role":"assistant"'),
  );
  const named = entries.filter(({ line }) => line.includes('"session_info"')).at(-1)?.value?.name;
  const user = entries.find(({ line, value }) => {
    if (!line.includes('"role":"user"') || value?.type !== "message" || value.message?.role !== "user")
      return false;
    const content = value.message.content;
    const text =
      typeof content === "string"
        ? content
        : Array.isArray(content)
          ? content
              .map((b: { type?: string; text?: unknown }) =>
                b?.type === "text" && typeof b.text === "string" ? b.text : "",
              )
              .join(" ")
          : "";
    return text.replace(/\s+/g, " ").trim() !== "";
  });
  return {
    id: header.id,
    name: typeof named === "string" && named !== "" ? named : undefined,
    entries: entries.length,
    model: candidates
      .map(({ value }) => modelOf(value))
      .filter(Boolean)
      .at(-1),
    lastTimestamp: entries.at(-1)?.value?.timestamp,
    hasFirstMessage: user !== undefined,
  };
}

describe("summarizeSessionFile against the whole file", () => {
  const headerLine =
    '{"type":"session","version":3,"id":"w1","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w"}';
  const assistant = (model: string | undefined, text = "ok") =>
    JSON.stringify({
      type: "message",
      id: `a${Math.random()}`,
      parentId: null,
      timestamp: "2026-01-03T00:00:00.000Z",
      message: {
        role: "assistant",
        content: [{ type: "text", text }],
        ...(model ? { provider: "p", model } : {}),
      },
    });
  const cases: Array<[string, string | Buffer]> = [
    [
      "blank lines of spaces, tabs, CR and a 0xA0 byte",
      Buffer.concat([
        Buffer.from(`${headerLine}\n \t\r\n`),
        Buffer.from([0xa0, 0x0a]),
        Buffer.from(`${assistant("m1")}\n`),
      ]),
    ],
    ["CRLF line ends", `${headerLine}\r\n${assistant("m1")}\r\n`],
    [
      "a model-less answer after one with a model",
      `${headerLine}\n${assistant("m1")}\n${assistant(undefined)}\n`,
    ],
    [
      "a broken last session_info line",
      `${headerLine}\n{"type":"session_info","name":"a"}\n{"type":"session_info","name":\n`,
    ],
    ["a byte order mark before the header", `\uFEFF${headerLine}\n${assistant("m2")}`],
    ["a header that is not a session", `{"type":"message"}\n${assistant("m1")}\n`],
    [
      "lines longer than the read chunk, no final newline",
      `${headerLine}\n${assistant("m1", "é".repeat(1_500_000))}\n${assistant("m3", "x".repeat(3_000_000))}`,
    ],
  ];

  it.each(cases)("gives what the whole file says, for %s", (name, content) => {
    const file = path.join(dir, `${name.replace(/\W+/g, "-")}.jsonl`);
    fs.writeFileSync(file, content);
    const summary = summarizeSessionFile(file);
    const expected = wholeFileSummary(file);
    if (expected === undefined) {
      expect(summary).toBeUndefined();
      return;
    }
    expect({
      id: summary?.id,
      name: summary?.name,
      entries: summary?.entries,
      model: summary?.model,
      lastTimestamp: summary?.lastActivity.toISOString(),
      hasFirstMessage: summary?.firstMessage !== undefined,
    }).toEqual({
      ...expected,
      lastTimestamp: new Date(expected.lastTimestamp ?? summary?.lastActivity).toISOString(),
    });
  });

  it("gives what the whole file says for a generated session of several megabytes", async () => {
    const generator = await import(path.resolve(__dirname, "../../../../bench/generate-session.mjs"));
    const file = path.join(dir, "generated.jsonl");
    generator.writeSessionFile(file, { entries: 3000, seed: 9 });
    expect(fs.statSync(file).size).toBeGreaterThan(3 << 20);
    const summary = summarizeSessionFile(file);
    const expected = wholeFileSummary(file);
    expect(summary).toMatchObject({
      id: expected?.id,
      name: expected?.name,
      entries: expected?.entries,
      model: expected?.model,
    });
    expect(summary?.lastActivity.toISOString()).toBe(expected?.lastTimestamp);
    expect(summary?.firstMessage).toBeDefined();
  });
});
