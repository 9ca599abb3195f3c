#!/usr/bin/env node
// Writes the hand-made session fixtures in src/__fixtures__/sessions/ (committed). Each fixture
// exercises part of pi 1.6.0's session format and projection; make-goldens.mjs runs pi on them.
// Deterministic: fixed ids and timestamps (all in 2024).
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const outDir = join(dirname(fileURLToPath(import.meta.url)), "..", "src", "__fixtures__", "sessions");
mkdirSync(outDir, { recursive: true });

const usage = (input, output, total = input + output) => ({
  input,
  output,
  cacheRead: 0,
  cacheWrite: 0,
  totalTokens: total,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
});
const PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

/** Builds one fixture: a header, then entries chained to the previous one unless a parent is given. */
function session({ version = 3, headerExtra = {} } = {}) {
  let time = Date.parse("2024-03-01T10:00:00.000Z");
  let previous = null;
  const lines = [
    {
      type: "session",
      ...(version === 1 ? {} : { version }),
      id: "fixture-session",
      timestamp: "2024-03-01T10:00:00.000Z",
      cwd: "/work/demo",
      ...headerExtra,
    },
  ];
  const api = {
    lines,
    /** Adds an entry; `parent` undefined = previous entry; `options.time` overrides the clock. */
    add(id, body, parent, options = {}) {
      time = options.time ?? time + 1000;
      const timestamp = new Date(time).toISOString();
      const entry =
        version === 1
          ? { ...body, timestamp }
          : { type: body.type, id, parentId: parent === undefined ? previous : parent, timestamp, ...body };
      if (entry.type === "message" && entry.message && entry.message.timestamp === undefined)
        entry.message = { ...entry.message, timestamp: time };
      lines.push(entry);
      previous = id;
      return api;
    },
    raw(text) {
      lines.push({ raw: text });
      return api;
    },
    user(id, content, parent) {
      return api.add(id, { type: "message", message: { role: "user", content } }, parent);
    },
    assistant(id, content, parent, extra = {}) {
      const blocks = typeof content === "string" ? [{ type: "text", text: content }] : content;
      return api.add(
        id,
        {
          type: "message",
          message: {
            role: "assistant",
            content: blocks,
            api: "anthropic-messages",
            provider: extra.provider ?? "anthropic",
            model: extra.model ?? "claude-test",
            usage: usage(1000, 50),
            stopReason: extra.stopReason ?? "stop",
            ...extra.fields,
          },
        },
        parent,
      );
    },
    toolResult(id, toolCallId, content, parent) {
      const blocks = typeof content === "string" ? [{ type: "text", text: content }] : content;
      return api.add(
        id,
        {
          type: "message",
          message: { role: "toolResult", toolCallId, toolName: "read", content: blocks, isError: false },
        },
        parent,
      );
    },
    system(id, patch, parent) {
      return api.add(id, { type: "message", message: { role: "system", content: "", ...patch } }, parent);
    },
  };
  return api;
}

function write(name, fixture, { finalNewline = true } = {}) {
  const text = fixture.lines.map((line) => ("raw" in line ? line.raw : JSON.stringify(line))).join("\n");
  writeFileSync(join(outDir, name), finalNewline ? `${text}\n` : text);
}

const readTool = {
  name: "read",
  description: "Read a file",
  parameters: { type: "object", properties: { path: { type: "string" } } },
};
const bashTool = { name: "bash", description: "Run a command", parameters: { type: "object" } };

// 1. A branched conversation with settings, tools, a custom message and a label.
write(
  "branches.jsonl",
  session()
    .system("s0000001", {
      sections: { intro: "You are a careful coding agent.", cwd: "Working in /work/demo" },
      toolsAdded: [readTool, bashTool],
    })
    .add("mc000001", { type: "model_change", provider: "anthropic", modelId: "claude-test" })
    .add("tl000001", { type: "thinking_level_change", thinkingLevel: "medium" })
    .user("u0000001", "Open main.ts and find the bug")
    .assistant(
      "a0000001",
      [
        { type: "thinking", thinking: "Start by reading it", thinkingSignature: "sig" },
        { type: "toolCall", id: "call-1", name: "read", arguments: { path: "main.ts" } },
      ],
      undefined,
      { stopReason: "toolUse" },
    )
    .toolResult("t0000001", "call-1", "export const answer = 41;\n")
    .assistant("a0000002", "The answer is off by one.")
    .user("u0000002", [{ type: "text", text: "Fix it" }])
    .assistant("a0000003", "Fixed.")
    .add("cm000001", {
      type: "custom_message",
      customType: "reminder",
      content: "Tests are in test/",
      display: true,
    })
    .add("lb000001", { type: "label", targetId: "u0000002", label: "fix" })
    .user("u0000003", "Run the tests")
    .assistant("a0000004", "All green.", undefined, { provider: "openai", model: "gpt-test" })
    .user("u00000b1", "Rather rewrite main.ts", "a0000002")
    .assistant("a00000b1", "Rewritten.")
    .add("tl000002", { type: "thinking_level_change", thinkingLevel: "high" })
    .user("u00000b2", "Thanks"),
);

// 2. Nested compactions, retain-none, a missing firstKeptEntryId, system messages around the boundary.
write(
  "compactions.jsonl",
  session()
    .system("s0000001", { content: "Base prompt.", sections: { rules: "Be brief." }, toolsAdded: [readTool] })
    .user("u0000001", "one")
    .assistant("a0000001", "reply one")
    .add("ed000001", { type: "context_edit", targetId: "a0000001", replacement: { content: "edited one" } })
    .user("u0000002", "two")
    .system("s0000002", { sections: { rules: "Be very brief.", extra: "Use tabs." }, toolsAdded: [bashTool] })
    .assistant("a0000002", "reply two")
    .add("lb000001", { type: "label", targetId: "u0000002", label: "two" })
    .user("u0000003", "three")
    .assistant("a0000003", "reply three")
    .add("c0000001", {
      type: "compaction",
      summary: "Summary of one and two.",
      firstKeptEntryId: "u0000003",
      tokensBefore: 4000,
      details: { readFiles: ["a.ts"], modifiedFiles: [] },
      fromHook: false,
      systemMessage: {
        role: "system",
        content: "Base prompt.",
        sections: { rules: "Be very brief.", extra: "Use tabs." },
        toolsAdded: [readTool, bashTool],
        timestamp: Date.parse("2024-03-01T10:00:11.000Z"),
      },
    })
    .system("s0000003", { sections: { extra: null }, toolsRemoved: [{ name: "bash" }] })
    .user("u0000004", "four")
    .assistant("a0000004", "reply four")
    .add("ed000002", { type: "context_edit", targetId: "u0000003", replacement: null })
    .add("c0000002", {
      type: "compaction",
      summary: "Second summary, keeping from two.",
      firstKeptEntryId: "u0000002",
      tokensBefore: 5000,
      usage: usage(5000, 300),
    })
    .user("u0000005", "five")
    .assistant("a0000005", "reply five")
    // A retain-none compaction on a branch from a0000004.
    .add(
      "c00000r1",
      {
        type: "compaction",
        summary: "Nothing kept.",
        firstKeptEntryId: "c00000r1",
        tokensBefore: 6000,
        fromHook: true,
        systemMessage: { role: "system", content: "Checkpoint only.", timestamp: 1 },
      },
      "a0000004",
    )
    .user("u00000r1", "after retain-none")
    // A compaction whose firstKeptEntryId is not on its path, on a branch from a0000002.
    .add(
      "c00000m1",
      {
        type: "compaction",
        summary: "Kept id is elsewhere.",
        firstKeptEntryId: "u0000005",
        tokensBefore: 100,
      },
      "a0000002",
    )
    .system("s00000m1", { content: "Late system text." })
    .user("u00000m1", "after missing kept id"),
);

// 3. Context edits: replace, omit, latest wins, branch-relative, string normalization by role.
write(
  "context-edits.jsonl",
  session()
    .user("u0000001", "original user text")
    .assistant("a0000001", "original assistant text")
    .toolResult("t0000001", "call-x", [
      { type: "text", text: "original tool output" },
      { type: "image", data: PNG, mimeType: "image/png" },
    ])
    .add("cm000001", {
      type: "custom_message",
      customType: "note",
      content: [{ type: "text", text: "original note" }],
      display: false,
      details: { from: "ext" },
    })
    .user("u0000002", "second user text")
    .add("ed000001", {
      type: "context_edit",
      targetId: "u0000001",
      replacement: { content: "user text as a string" },
    })
    .add("ed000002", {
      type: "context_edit",
      targetId: "a0000001",
      replacement: { content: "assistant text as a string" },
    })
    .add("ed000003", {
      type: "context_edit",
      targetId: "t0000001",
      replacement: { content: "tool output as a string" },
    })
    .add("ed000004", {
      type: "context_edit",
      targetId: "cm000001",
      replacement: { content: "note as a string" },
    })
    .add("ed000005", {
      type: "context_edit",
      targetId: "u0000002",
      replacement: {
        content: [
          { type: "text", text: "blocks" },
          { type: "image", data: PNG, mimeType: "image/png" },
        ],
      },
    })
    .add("ed000006", { type: "context_edit", targetId: "a0000001", replacement: null })
    .user("u0000003", "after edits")
    // Branch from before the edits: none of them applies there.
    .add("ed0000b1", { type: "context_edit", targetId: "t0000001", replacement: null }, "u0000002")
    .user("u00000b1", "other branch")
    // An edit targeting an entry that is not on its path (hand-made) has no effect.
    .add("ed0000x1", { type: "context_edit", targetId: "u00000b1", replacement: null }, "u0000003")
    .assistant("a0000003", "done")
    // A hand-made edit that removes a compaction's contribution.
    .add("c0000001", {
      type: "compaction",
      summary: "Compacted.",
      firstKeptEntryId: "u0000003",
      tokensBefore: 10,
      systemMessage: { role: "system", content: "cp", timestamp: 2 },
    })
    .add("ed0000c1", { type: "context_edit", targetId: "c0000001", replacement: null })
    .user("u0000004", "after a compaction edit")
    .add(
      "ed0000c2",
      { type: "context_edit", targetId: "c0000001", replacement: { content: "replaced summary" } },
      "c0000001",
    ),
);

// 4. Every entry type, unknown types and fields, null contents, images, summaries, roots and orphans.
write(
  "entry-types.jsonl",
  session({ headerExtra: { futureHeaderField: { kept: true } } })
    .system("s0000001", {
      content: [
        { type: "text", text: "Block prompt." },
        { type: "text", text: "Second block." },
      ],
      toolsAdded: [readTool],
    })
    .add("mc000001", { type: "model_change", provider: "openai", modelId: "gpt-test" })
    .user("u0000001", [
      { type: "text", text: "What is in this picture?" },
      { type: "image", data: PNG, mimeType: "image/png" },
    ])
    .assistant("a0000001", [{ type: "text", text: "A dot.", textSignature: "s1" }], undefined, {
      fields: { responseId: "r1", futureField: [1, 2] },
    })
    .add("us000001", {
      type: "usage",
      kind: "cache_warm",
      provider: "anthropic",
      model: "claude-test",
      usage: usage(10, 0),
      note: "warm",
    })
    .add("cu000001", { type: "custom", customType: "plan-mode", data: { enabled: true } })
    .add("cm000001", {
      type: "custom_message",
      customType: "hint",
      content: "A hint.",
      display: true,
      details: { level: 2 },
    })
    .add("cm000002", { type: "custom_message", customType: "empty", content: null, display: false })
    .add("si000001", { type: "session_info", name: "  Picture talk  " })
    .add("lb000001", { type: "label", targetId: "u0000001", label: "picture" })
    .add("lb000002", { type: "label", targetId: "u0000001" })
    .add("lb000003", { type: "label", targetId: "a0000001", label: "answer" })
    .add("bx000001", {
      type: "message",
      message: {
        role: "bashExecution",
        command: "ls",
        output: "a.ts\nb.ts",
        exitCode: 0,
        cancelled: false,
        truncated: false,
      },
    })
    .add("bx000002", {
      type: "message",
      message: {
        role: "bashExecution",
        command: "cat secret",
        output: "hidden",
        exitCode: 1,
        cancelled: false,
        truncated: false,
        excludeFromContext: true,
      },
    })
    .add("ms000001", {
      type: "message",
      message: {
        role: "custom",
        customType: "inline",
        content: "custom role in a message entry",
        display: true,
      },
    })
    .add("nu000001", { type: "message", message: { role: "user", content: null } })
    .add("nu000002", {
      type: "message",
      message: {
        role: "assistant",
        api: "x",
        provider: "anthropic",
        model: "claude-test",
        usage: usage(1, 1),
        stopReason: "stop",
      },
    })
    .add("nu000003", {
      type: "message",
      message: { role: "system", content: null, sections: { late: "Late section." } },
    })
    .add("fx000001", { type: "future_entry", payload: { anything: [1, "two"] } })
    .add("zz000001", { type: "message", message: { role: "futureRole", text: "unknown role" } })
    .add(
      "bs000001",
      {
        type: "branch_summary",
        fromId: "a0000001",
        summary: "We looked at another picture.",
        details: { readFiles: [] },
        fromHook: false,
      },
      "u0000001",
    )
    .add("bs000002", { type: "branch_summary", fromId: "bs000001", summary: "" })
    .assistant("a0000002", "Back on the main line.")
    .add("tl000001", { type: "thinking_level_change", thinkingLevel: "low" })
    .add("si000002", { type: "session_info", name: "Renamed" })
    // A second root (branch summary from an empty leaf) and an orphan whose parent does not exist.
    .add("bs0000r1", { type: "branch_summary", fromId: "root", summary: "Started over." }, null)
    .user("u00000r1", "fresh start")
    .user("or000001", "orphan", "gone0000")
    .assistant("a00000o1", "orphan reply"),
);

// 5. System prompt patches among kept entries and after a compaction; tools added and removed.
write(
  "system-patches.jsonl",
  session()
    .system("s0000001", {
      content: "Prompt v1.",
      sections: { a: "Section A.", b: "Section B." },
      toolsAdded: [readTool, bashTool],
    })
    .user("u0000001", "hello")
    .assistant("a0000001", "hi")
    .system("s0000002", { sections: { a: null, c: "Section C." }, toolsRemoved: [{ name: "read" }] })
    .user("u0000002", "more")
    .system("s0000003", { content: "Appended text.", toolsAdded: [readTool] })
    .assistant("a0000002", "sure")
    .add("c0000001", {
      type: "compaction",
      summary: "S1",
      firstKeptEntryId: "a0000001",
      tokensBefore: 300,
      systemMessage: {
        role: "system",
        content: "Prompt v1.\n\nAppended text.",
        sections: { b: "Section B.", c: "Section C." },
        toolsAdded: [bashTool, readTool],
        timestamp: Date.parse("2024-03-01T10:00:08.000Z"),
      },
    })
    .system("s0000004", { sections: { d: "Section D." } })
    .user("u0000003", "after")
    .add("c0000002", {
      type: "compaction",
      summary: "S2 without a checkpoint",
      firstKeptEntryId: "s0000004",
      tokensBefore: 400,
    })
    .assistant("a0000003", "end"),
);

// 6. Version 1: no ids, compaction by index, hookMessage role.
write(
  "v1-session.jsonl",
  session({ version: 1 })
    .add("x", { type: "message", message: { role: "user", content: "first question" } })
    .add("x", {
      type: "message",
      message: {
        role: "assistant",
        content: [{ type: "text", text: "first answer" }],
        api: "anthropic-messages",
        provider: "anthropic",
        model: "claude-old",
        usage: usage(5, 5),
        stopReason: "stop",
      },
    })
    .add("x", { type: "thinking_level_change", thinkingLevel: "high" })
    .add("x", {
      type: "message",
      message: { role: "hookMessage", customType: "legacy-hook", content: "from an old hook", display: true },
    })
    .add("x", { type: "message", message: { role: "user", content: "second question" } })
    .add("x", {
      type: "message",
      message: {
        role: "assistant",
        content: [{ type: "text", text: "second answer" }],
        api: "anthropic-messages",
        provider: "anthropic",
        model: "claude-old",
        usage: usage(5, 5),
        stopReason: "stop",
      },
    })
    .add("x", { type: "compaction", summary: "Old summary.", firstKeptEntryIndex: 5, tokensBefore: 900 })
    .add("x", { type: "message", message: { role: "user", content: "third question" } })
    .add("x", {
      type: "compaction",
      summary: "Index at the header.",
      firstKeptEntryIndex: 0,
      tokensBefore: 950,
    })
    .add("x", { type: "message", message: { role: "user", content: "fourth question" } }),
);

// 7. Version 2: ids, a branch and a hookMessage.
write(
  "v2-session.jsonl",
  session({ version: 2 })
    .user("u0000001", "v2 question")
    .add("hk000001", {
      type: "message",
      message: {
        role: "hookMessage",
        customType: "hook",
        content: [{ type: "text", text: "hook text" }],
        display: false,
      },
    })
    .assistant("a0000001", "v2 answer")
    .user("u00000b1", "v2 other branch", "u0000001")
    .add("c0000001", {
      type: "compaction",
      summary: "v2 summary",
      firstKeptEntryId: "u00000b1",
      tokensBefore: 50,
    })
    .user("u00000b2", "after v2 compaction"),
);

// 8. Corrupt lines: a bad line in the middle, a blank line, a stray header, a torn last line.
write(
  "corrupt-lines.jsonl",
  session()
    .user("u0000001", "before the damage")
    .raw('{"type":"message","id":"bad00001","parentId":"u0000001","message":{"role":"user","con')
    .assistant("a0000001", "after the damage", "u0000001")
    .raw("")
    .raw(
      JSON.stringify({
        type: "session",
        version: 3,
        id: "stray-header",
        timestamp: "2024-03-01T10:00:09.000Z",
        cwd: "/elsewhere",
      }),
    )
    .user("u0000002", "last full line")
    .raw('{"type":"message","id":"torn0001","parentId":"u0000002","timestamp":"2024-03-01T10:'),
  { finalNewline: false },
);

// 9. Tree order: children out of timestamp order, several roots, labels on other branches.
write(
  "tree-order.jsonl",
  session()
    .user("u0000001", "root question")
    .assistant("a0000003", "late child", "u0000001", {})
    .add(
      "a0000001",
      {
        type: "message",
        message: {
          role: "assistant",
          content: [{ type: "text", text: "early child" }],
          api: "x",
          provider: "anthropic",
          model: "m",
          usage: usage(1, 1),
          stopReason: "stop",
        },
      },
      "u0000001",
      { time: Date.parse("2024-03-01T09:00:00.000Z") },
    )
    .assistant("a0000002", "middle child", "u0000001")
    .add("lb000001", { type: "label", targetId: "a0000001", label: "early" }, "a0000002")
    .user("u0000002", "second root", null)
    .add("lb000002", { type: "label", targetId: "a0000003", label: "late" })
    .add("lb000003", { type: "label", targetId: "a0000001", label: "early again" })
    .user("u0000003", "follow-up on the late child", "a0000003"),
);
console.log(`fixtures written to ${outDir}`);
