import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { openSessionStore, type SessionEntry } from "@arbor/session-store";
import { afterAll, describe, expect, it } from "vitest";
import { describeEntry } from "./describe-entry";
import { EntryLineDescriber } from "./describe-entry-line";
import { sessionTreeShapeRows } from "./session-tree-rows";

/** A small deterministic generator (mulberry32), so a failure can be reproduced. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Pieces of hostile text: escapes, surrogates, controls, ANSI and OSC sequences, Unicode spaces. */
const PIECES = [
  "word",
  "fix the bug",
  " ",
  "  ",
  "\n",
  "\r\n",
  "\t",
  "\u000b",
  "\u001b[31m",
  "\u001b[",
  "\u001b]0;title\u0007",
  "\u001b]8;;http://x\u001b\\",
  "\u009b2J",
  "\u0000",
  "\u007f",
  "é",
  "日本語",
  "😀",
  "\ud800",
  "\udc00",
  "\u202e",
  "\u2066",
  "\u00a0",
  "\u3000",
  "\u2028",
  "\ufeff",
  '"',
  "\\",
  "\\n",
  "/",
  "→",
  "✓",
  "a".repeat(300),
  "line\n".repeat(40),
  " \n ".repeat(30),
];

function text(rng: () => number, long = false): string {
  const count = Math.floor(rng() * (long ? 60 : 8));
  let out = "";
  for (let index = 0; index < count; index++) out += PIECES[Math.floor(rng() * PIECES.length)];
  return out;
}

function pick<T>(rng: () => number, items: readonly T[]): T {
  return items[Math.floor(rng() * items.length)] as T;
}

function block(rng: () => number, assistant: boolean): unknown {
  const kind = rng();
  if (kind < 0.5)
    return rng() < 0.9
      ? { type: "text", text: text(rng, true) }
      : pick(rng, [{ type: "text" }, { type: "text", text: null }, { text: "x", type: "text" }]);
  if (kind < 0.6) return { type: "image", data: "AAAA", mimeType: "image/png" };
  if (!assistant) return pick(rng, [{ type: "other" }, { type: "text", text: 5 }, "text", null]);
  if (kind < 0.75) return { type: "thinking", thinking: text(rng, true) };
  const key = pick(rng, ["path", "command", "pattern", "query", "other"]);
  const value = pick<unknown>(rng, [text(rng, true), text(rng), null, 5, { nested: text(rng) }]);
  const args = rng() < 0.1 ? {} : rng() < 0.2 ? { other: 1, [key]: value } : { [key]: value };
  return { type: "toolCall", id: "c1", name: pick(rng, ["read", "bash", text(rng)]), arguments: args };
}

/** A message of any role; `sound`: one that `describeEntry` can describe (assistant content is a list). */
function message(rng: () => number, sound = false): Record<string, unknown> {
  const role = pick(rng, ["user", "assistant", "toolResult", "system"]);
  const content =
    rng() < 0.3 && role !== "assistant"
      ? text(rng, true)
      : Array.from({ length: Math.floor(rng() * 4) }, () => block(rng, role === "assistant"));
  const base: Record<string, unknown> = { role, content, timestamp: 1 };
  if (role === "assistant") {
    Object.assign(base, { api: "a", provider: "p", model: "m", usage: { input: 1, output: 2 } });
    base.stopReason = pick(rng, ["stop", "toolUse", "error", "aborted"]);
    if (rng() < 0.5) base.errorMessage = pick<unknown>(rng, [text(rng), null, 3]);
  }
  if (role === "toolResult") {
    base.toolCallId = "c1";
    base.toolName = pick<unknown>(rng, ["read", text(rng), 7]);
    if (rng() < 0.8) base.isError = pick<unknown>(rng, [true, false, null, 1]);
  }
  if (rng() < 0.05 && !(sound && role === "assistant")) delete base.content;
  return base;
}

/** The same entry written differently: key orders, whitespace, \u escapes, escaped or repeated keys. */
function variants(entry: Record<string, unknown>, rng: () => number): string[] {
  const plain = JSON.stringify(entry);
  const reordered = JSON.stringify(Object.fromEntries(Object.entries(entry).reverse()));
  const spaced = JSON.stringify(entry, null, 1).replace(/\n/g, pick(rng, [" ", "\t", "\r "]));
  const ascii = plain.replace(
    /[\u007f-\uffff]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
  const escapedKey = plain.replace('"role"', '"\\u0072ole"');
  const repeated = plain.replace('"role":', '"role":"user","role":');
  return [plain, reordered, spaced, ascii, escapedKey, repeated];
}

describe("EntryLineDescriber", () => {
  it("answers what describeEntry gives for the parsed entry, or nothing, for generated hostile lines", () => {
    const rng = random(15);
    const describer = new EntryLineDescriber();
    let answered = 0;
    let usual = 0;
    let lines = 0;
    for (let round = 0; round < 1500; round++) {
      const entry = {
        type: "message",
        id: `e${round}`,
        parentId: null,
        timestamp: "t",
        message: message(rng),
      };
      for (const [variant, line] of variants(entry, rng).entries()) {
        const width = 20 + Math.floor(rng() * 120);
        if (variant < 4) lines++;
        let full: unknown;
        try {
          full = describeEntry(JSON.parse(line) as SessionEntry, width);
        } catch (error) {
          full = error;
        }
        const fast = describer.describe(Buffer.from(line), entry.id, width);
        if (fast === undefined) continue;
        answered++;
        if (variant < 4) usual++;
        expect(fast, line).toEqual(full);
      }
    }
    // Most lines written the usual ways (no escaped or repeated keys) take the fast path.
    expect(usual).toBeGreaterThan(lines / 2);
    // A line with an escaped key, or a key it reads written twice, is always left to the full read.
    expect(answered).toBe(usual);
  });

  it("leaves lines that are not well-formed JSON, or not of this id, to the full read", () => {
    const describer = new EntryLineDescriber();
    const line = JSON.stringify({
      type: "message",
      id: "a",
      parentId: null,
      message: { role: "user", content: "hi" },
    });
    expect(describer.describe(Buffer.from(line), "a", 40)).toEqual({ kind: "user", text: "hi" });
    expect(describer.describe(Buffer.from(line), "b", 40)).toBeUndefined();
    for (const broken of [
      line.slice(0, -1),
      line.replace("hi", "h\ti"),
      line.replace("hi", 'h"i'),
      line.replace("hi", "h\\xi"),
      line.replace("hi", "h\\u12i"),
      line.replace(":null", ":nul"),
      line.replace(":null", ":01"),
      `${line}x`,
      line.replace('"role":', '"role":,'),
    ]) {
      expect(() => JSON.parse(broken)).toThrow();
      expect(describer.describe(Buffer.from(broken), "a", 40), broken).toBeUndefined();
    }
  });

  it("answers for any row width: texts wider than its WebAssembly regions are made the whole way", () => {
    const describer = new EntryLineDescriber();
    const text = "日本語 a\tb ".repeat(3000);
    const messages = [
      { role: "user", content: text },
      {
        role: "assistant",
        content: [
          { type: "text", text },
          { type: "toolCall", id: "c", name: "read", arguments: { path: text } },
        ],
      },
      {
        role: "toolResult",
        toolCallId: "c",
        toolName: "read",
        content: [{ type: "text", text }],
        isError: false,
      },
    ];
    for (const message of messages) {
      const entry = { type: "message", id: "a", parentId: null, timestamp: "t", message };
      for (const width of [40, 5999, 6000, 6001, 20_000]) {
        const fast = describer.describe(Buffer.from(JSON.stringify(entry)), "a", width);
        expect(fast, `${message.role} ${width}`).toEqual(describeEntry(entry as SessionEntry, width));
      }
    }
  });

  const realSessions = "/work/shared/pi-sessions";
  const real = fs.existsSync(realSessions)
    ? fs.readdirSync(realSessions).filter((name) => name.endsWith(".jsonl.gz"))
    : [];
  it.runIf(real.length > 0)("answers what describeEntry gives on the real pi sessions' messages", () => {
    const describer = new EntryLineDescriber();
    let answered = 0;
    let refused = 0;
    for (const name of real) {
      const text = gunzipSync(fs.readFileSync(path.join(realSessions, name))).toString("utf8");
      for (const [index, written] of text.split("\n").slice(1).entries()) {
        if (written.trim() === "") continue;
        // These sessions are pi's version 1 (entries without ids): the real bytes, with an id put in.
        const id = `r${index}`;
        const line = written.replace(/^\{"type":"message",/, `{"type":"message","id":"${id}",`);
        let entry: SessionEntry;
        try {
          entry = JSON.parse(line) as SessionEntry;
        } catch {
          // A damaged line (two in these files): never described from its bytes.
          expect(describer.describe(Buffer.from(line), id, 76)).toBeUndefined();
          refused++;
          continue;
        }
        for (const width of [24, 76, 200]) {
          const fast = describer.describe(Buffer.from(line), id, width);
          if (fast === undefined) continue;
          answered++;
          expect(fast, `${name} line ${index + 2} width ${width}`).toEqual(describeEntry(entry, width));
        }
      }
    }
    expect(answered).toBeGreaterThan(3000);
    expect(refused).toBeLessThan(5);
  });
});

describe("sessionTreeShapeRows with the line describer", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "arbor-tree-lines-"));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("makes the same rows as reading every entry, for a generated session file", () => {
    const rng = random(42);
    const file = path.join(dir, "generated.jsonl");
    const lines = [JSON.stringify({ type: "session", version: 3, id: "s1", timestamp: "t", cwd: "/" })];
    let parent: string | null = null;
    for (let index = 0; index < 600; index++) {
      const id = `${index.toString(16).padStart(8, "0")}`;
      const entry = {
        type: "message",
        id,
        parentId: parent,
        timestamp: new Date(index * 1000).toISOString(),
        message: message(rng, true),
      };
      // Forks now and then, so rows are indented and the preview's room varies.
      parent = rng() < 0.1 && index > 2 ? `${(index - 2).toString(16).padStart(8, "0")}` : id;
      const written = variants(entry, rng)[Math.floor(rng() * 4)] as string;
      lines.push(written);
    }
    fs.writeFileSync(file, `${lines.join("\n")}\n`);
    const store = openSessionStore(file, {
      storage: { readOnly: true, sidecarIndex: false },
      validate: "lazy",
    });
    try {
      const options = { leafId: store.leafId, width: 100 };
      const full = [...sessionTreeShapeRows(store.getTreeShape(), options, (id) => store.getEntry(id))];
      const describer = new EntryLineDescriber();
      let asked = 0;
      const fast = [
        ...sessionTreeShapeRows(
          store.getTreeShape(),
          options,
          (id) => store.getEntry(id),
          (id, width) => {
            const line = store.getEntryLine(id);
            const described = line === undefined ? undefined : describer.describe(line, id, width);
            if (described !== undefined) asked++;
            return described;
          },
        ),
      ];
      expect(fast).toEqual(full);
      expect(asked).toBeGreaterThan(300);
    } finally {
      store.close();
    }
  });
});
