#!/usr/bin/env node
/**
 * Deterministic generator of realistic pi-format (version 3) session files, for benchmarks.
 *
 *   node bench/generate-session.mjs --entries 100000 --seed 1 --out /tmp/s-100k.jsonl
 *
 * or, from code:
 *
 *   import { generateSessionLines, writeSessionFile } from "./generate-session.mjs";
 *   for (const line of generateSessionLines({ entries: 1000, seed: 1 })) ...
 *   writeSessionFile("/tmp/s.jsonl", { entries: 1000, seed: 1 }); // streams, fine for 1M entries
 *
 * What a session holds (N = entries): turns of user prompt -> assistant (thinking, text, 1-3 tool
 * calls) -> tool results -> assistant answer; tool outputs heavy-tailed (lognormal, median ~400 B,
 * `read` ~1.2 KB, capped at 50 KB) with quotes, backslashes, newlines and non-ASCII text; about N/500
 * branch points (the leaf jumps back up the current path), N/2000 branch summaries, N/5000 compactions
 * (firstKeptEntryId on the path, systemMessage, details with file lists), N/200 context edits, images
 * (user screenshots, tool images), system-message patches (sections and toolsAdded/toolsRemoved),
 * labels, model and thinking-level changes, custom messages and custom entries, bash executions and
 * session_info names. Keys are written in pi's order. About 1.9 KB per entry on average.
 */
import { closeSync, openSync, writeSync } from "node:fs";
import { pathToFileURL } from "node:url";

/** mulberry32: small, fast, deterministic. */
function createRandom(seed) {
  let a = seed >>> 0 || 0x9e3779b9;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (lo, hi) => lo + Math.floor(next() * (hi - lo + 1));
  const pick = (list) => list[Math.floor(next() * list.length)];
  const chance = (p) => next() < p;
  // Box-Muller for a lognormal size.
  const lognormal = (median, sigma) => {
    const u = Math.max(next(), 1e-12);
    const v = next();
    return median * Math.exp(sigma * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v));
  };
  return { next, int, pick, chance, lognormal };
}

const WORDS = (
  "the a function returns value when file path error test build module import export const let await " +
  "async config session entry branch compaction summary token context window model request response " +
  "parser buffer offset index line newline quote escape unicode naïve café résumé 日本語 données → ✓ " +
  "refactor rename update fix check ensure handle retry timeout stream chunk append durable lock"
).split(" ");

const CODE_LINES = [
  'import { readFileSync } from "node:fs";',
  "export function parse(input: string): Result {",
  '  const text = input.replace(/\\s+/g, " ").trim();',
  '  if (!text) throw new Error("empty input: \\"" + input + "\\"");',
  "  return { ok: true, value: JSON.parse(text) };",
  "}",
  "    at Object.<anonymous> (/home/user/proj/src/index.ts:42:13)",
  "FAIL src/session.test.ts > loads a session > keeps corrupt lines",
  "  expected [ 'a', 'b' ] to deeply equal [ 'a', 'b', 'c' ]",
  "drwxr-xr-x  5 user user  4096 Nov 30 12:00 packages",
  "-rw-r--r--  1 user user 18231 Nov 30 12:01 README.md",
  "src/storage/jsonl.ts:118:      const nl = buf.indexOf(10, pos);",
  "C:\\Users\\dev\\project\\src\\main.ts(12,5): error TS2322: Type 'string' is not assignable to type 'number'.",
  "\tat processTicksAndRejections (node:internal/process/task_queues:95:5)",
  "✓ 42 tests passed (1.2s) — naïve résumé café 日本語のテキスト",
  '{"name":"@arbor/session-store","version":"0.1.0","type":"module"}',
  "  for (let i = 0; i < entries.length; i++) total += entries[i].size;",
  "# Heading with `code` and **bold** text",
  "warning: LF will be replaced by CRLF in src/app.ts",
  "    def handle(self, request):  # TODO: retry on 429",
];

const TOOLS = [
  {
    name: "read",
    description: "Read a file from disk",
    parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
  },
  {
    name: "bash",
    description: "Run a shell command",
    parameters: {
      type: "object",
      properties: { command: { type: "string" }, timeout: { type: "number" } },
      required: ["command"],
    },
  },
  {
    name: "edit",
    description: "Replace text in a file",
    parameters: {
      type: "object",
      properties: { path: { type: "string" }, oldText: { type: "string" }, newText: { type: "string" } },
      required: ["path", "oldText", "newText"],
    },
  },
  {
    name: "write",
    description: "Write a file",
    parameters: {
      type: "object",
      properties: { path: { type: "string" }, content: { type: "string" } },
      required: ["path", "content"],
    },
  },
  {
    name: "grep",
    description: "Search files with a regular expression",
    parameters: {
      type: "object",
      properties: { pattern: { type: "string" }, path: { type: "string" } },
      required: ["pattern"],
    },
  },
];
const EXTRA_TOOLS = [
  {
    name: "web_fetch",
    description: "Fetch a URL",
    parameters: { type: "object", properties: { url: { type: "string" } }, required: ["url"] },
  },
  {
    name: "todo",
    description: "Track a todo list",
    parameters: { type: "object", properties: { items: { type: "array" } } },
  },
];
const FILES = [
  "src/index.ts",
  "src/session.ts",
  "src/storage/jsonl.ts",
  "README.md",
  "package.json",
  "test/session.test.ts",
  "src/tree.ts",
  "docs/guide.md",
];
const MODELS = [
  ["anthropic", "claude-sonnet-4-5"],
  ["openai", "gpt-5"],
  ["anthropic", "claude-opus-4-1"],
];

function textOf(random, bytes, code) {
  const parts = [];
  let size = 0;
  while (size < bytes) {
    const piece = code
      ? random.pick(CODE_LINES)
      : Array.from({ length: random.int(6, 16) }, () => random.pick(WORDS)).join(" ") +
        (random.chance(0.3) ? ".\n" : ". ");
    parts.push(piece);
    size += piece.length + 1;
  }
  return code ? parts.join("\n") : parts.join("");
}

function base64Of(random, bytes) {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  const block = Array.from({ length: 1024 }, () => alphabet[random.int(0, 63)]).join("");
  return block.repeat(Math.ceil(bytes / 1024)).slice(0, bytes - (bytes % 4));
}

function usage(random, input) {
  const output = random.int(20, 900);
  const cacheRead = random.int(0, input);
  return {
    input,
    output,
    cacheRead,
    cacheWrite: random.int(0, 2000),
    totalTokens: input + output + cacheRead,
    cost: {
      input: input * 3e-6,
      output: output * 1.5e-5,
      cacheRead: cacheRead * 3e-7,
      cacheWrite: 0,
      total: input * 3e-6 + output * 1.5e-5,
    },
  };
}

/**
 * Yields the lines (JSON text without newline) of a deterministic session: the header first, then
 * exactly `entries` entries.
 */
export function* generateSessionLines({ entries, seed = 1, cwd = "/home/user/proj" }) {
  const random = createRandom(seed);
  const ids = new Set();
  const newId = () => {
    for (;;) {
      const id = Math.floor(random.next() * 0xffffffff)
        .toString(16)
        .padStart(8, "0");
      if (!ids.has(id)) {
        ids.add(id);
        return id;
      }
    }
  };
  let clock = Date.parse("2025-06-01T09:00:00.000Z");
  const tick = () => {
    clock += random.int(200, 20_000);
    return new Date(clock).toISOString();
  };
  const sessionId = `0197${Math.floor(random.next() * 1e12)
    .toString(16)
    .padStart(10, "0")}-7000-8000-${newId()}${newId().slice(0, 4)}`;
  yield JSON.stringify({
    type: "session",
    version: 3,
    id: sessionId,
    timestamp: new Date(clock).toISOString(),
    cwd,
  });

  /** Current path, root first: { id, kind } where kind is the projection-relevant role. */
  const path = [];
  let written = 0;
  let [provider, model] = MODELS[0];
  let tools = TOOLS.map((t) => t.name);
  const sections = {
    preamble: "You are a careful coding agent.",
    cwd: `Current directory: ${cwd}`,
    date: "Today is 2025-06-01.",
  };
  const leafId = () => (path.length ? path[path.length - 1].id : null);
  const emit = (body, kind, parentId = leafId()) => {
    const id = newId();
    const timestamp = tick();
    let entry;
    if (body.type === "custom_message") {
      entry = {
        type: body.type,
        customType: body.customType,
        content: body.content,
        display: body.display,
        details: body.details,
        id,
        parentId,
        timestamp,
      };
    } else if (body.type === "custom") {
      entry = { type: body.type, customType: body.customType, data: body.data, id, parentId, timestamp };
    } else {
      entry = { type: body.type, id, parentId, timestamp, ...body };
      if (entry.message) entry.message = { ...entry.message, timestamp: clock };
    }
    path.push({ id, kind });
    written++;
    return JSON.stringify(entry);
  };
  const systemMessage = () => ({
    role: "system",
    content: "",
    sections: { ...sections },
    toolsAdded: TOOLS.concat(EXTRA_TOOLS).filter((t) => tools.includes(t.name)),
  });

  yield emit({ type: "message", message: systemMessage() }, "system");
  yield emit({ type: "model_change", provider, modelId: model }, "setting");
  yield emit({ type: "thinking_level_change", thinkingLevel: "medium" }, "setting");

  // Target rates per entry (see the file comment); one loop iteration writes ~9.5 entries on average.
  const perIteration = 9.5;
  const pBranch = perIteration / 500;
  const pCompaction = perIteration / 5000;
  const pEdit = perIteration / 200;
  let lastCompactionAt = 0;

  while (written < entries) {
    const r = random.next();
    // Rare structural events first.
    if (r < pBranch && path.length > 40) {
      const back = Math.min(path.length - 5, random.int(4, 120));
      const oldLeaf = leafId();
      path.length -= back;
      if (random.chance(1 / 4)) {
        yield emit(
          {
            type: "branch_summary",
            fromId: oldLeaf,
            summary: `## Goal\n${textOf(random, random.int(300, 1200), false)}\n## Progress\n${textOf(random, 400, false)}`,
            details: { readFiles: FILES.slice(0, 3), modifiedFiles: FILES.slice(3, 4) },
            fromHook: false,
          },
          "summary",
        );
      }
      continue;
    }
    if (r >= pBranch && r < pBranch + pCompaction && path.length > 60 && written - lastCompactionAt > 200) {
      // firstKeptEntryId: a user message 15-60 entries back on the path.
      let keep = path.length - random.int(15, 60);
      while (keep > 0 && path[keep].kind !== "user") keep--;
      yield emit(
        {
          type: "compaction",
          summary: `## Goal\n${textOf(random, random.int(800, 2500), false)}\n## Key decisions\n${textOf(random, 600, false)}\n<read-files>\n${FILES.slice(0, 4).join("\n")}\n</read-files>`,
          firstKeptEntryId: path[Math.max(keep, 0)].id,
          tokensBefore: random.int(60_000, 190_000),
          details: { readFiles: FILES.slice(0, 4), modifiedFiles: FILES.slice(4, 6) },
          fromHook: false,
          systemMessage: { ...systemMessage(), timestamp: clock },
        },
        "compaction",
      );
      lastCompactionAt = written;
      continue;
    }
    if (r >= pBranch + pCompaction && r < pBranch + pCompaction + pEdit) {
      const candidates = path
        .slice(-80)
        .filter((p) => p.kind === "toolResult" || p.kind === "user" || p.kind === "assistant");
      if (candidates.length) {
        const target = random.pick(candidates);
        const replacement = random.chance(0.4)
          ? null
          : { content: [{ type: "text", text: `[trimmed: ${textOf(random, 60, false)}]` }] };
        yield emit({ type: "context_edit", targetId: target.id, replacement }, "edit");
        continue;
      }
    }
    if (r > 0.95) {
      const e = random.next();
      if (e < 0.25) {
        yield emit(
          {
            type: "label",
            targetId: random.pick(path.slice(-50)).id,
            label: random.chance(0.8)
              ? random.pick(["checkpoint", "good state", "before refactor", "bug repro"])
              : undefined,
          },
          "setting",
        );
      } else if (e < 0.35) {
        [provider, model] = random.pick(MODELS);
        yield emit({ type: "model_change", provider, modelId: model }, "setting");
      } else if (e < 0.42) {
        yield emit(
          { type: "thinking_level_change", thinkingLevel: random.pick(["low", "medium", "high"]) },
          "setting",
        );
      } else if (e < 0.52) {
        const patch = random.chance(0.5)
          ? { notes: textOf(random, 200, false) }
          : { date: `Today is 2025-06-${random.int(10, 28)}.`, notes: null };
        const add = random.chance(0.5) ? EXTRA_TOOLS.filter((t) => !tools.includes(t.name)).slice(0, 1) : [];
        const remove = !add.length && tools.length > 5 ? [{ name: tools[tools.length - 1] }] : undefined;
        tools = tools.concat(add.map((t) => t.name)).filter((n) => !remove?.some((x) => x.name === n));
        Object.assign(sections, patch);
        for (const [k, v] of Object.entries(patch)) if (v === null) delete sections[k];
        yield emit(
          {
            type: "message",
            message: {
              role: "system",
              content: "",
              sections: patch,
              ...(add.length ? { toolsAdded: add } : {}),
              ...(remove ? { toolsRemoved: remove } : {}),
            },
          },
          "system",
        );
      } else if (e < 0.75) {
        yield emit(
          {
            type: "custom_message",
            customType: random.pick(["note", "reminder", "plan"]),
            content: random.chance(0.5)
              ? textOf(random, 150, false)
              : [{ type: "text", text: textOf(random, 200, false) }],
            display: random.chance(0.7),
            details: random.chance(0.5) ? { source: "extension", n: random.int(1, 99) } : undefined,
          },
          "custom",
        );
      } else if (e < 0.9) {
        yield emit(
          {
            type: "custom",
            customType: "todo-state",
            data: {
              items: Array.from({ length: random.int(1, 6) }, (_, i) => ({
                id: i,
                text: textOf(random, 40, false),
                done: random.chance(0.5),
              })),
            },
          },
          "setting",
        );
      } else if (e < 0.95) {
        yield emit(
          {
            type: "message",
            message: {
              role: "bashExecution",
              command: `npm test -- ${random.pick(FILES)}`,
              output: textOf(random, Math.min(50_000, Math.round(random.lognormal(500, 1.3))), true),
              exitCode: random.pick([0, 0, 1]),
              cancelled: false,
              truncated: false,
            },
          },
          "bash",
        );
      } else {
        yield emit({ type: "session_info", name: `Work on ${random.pick(FILES)}` }, "setting");
      }
      continue;
    }
    // A turn: user -> (assistant with tool calls -> results)* -> assistant answer.
    const prompt = textOf(random, random.int(40, 600), false);
    const content = random.chance(0.03)
      ? [
          { type: "text", text: prompt },
          { type: "image", data: base64Of(random, random.int(4_000, 30_000)), mimeType: "image/png" },
        ]
      : random.chance(0.5)
        ? prompt
        : [{ type: "text", text: prompt }];
    yield emit({ type: "message", message: { role: "user", content } }, "user");
    const rounds = random.int(1, 4);
    for (let round = 0; round < rounds && written < entries; round++) {
      const calls = Array.from({ length: random.int(1, 3) }, () => {
        const name = random.pick(
          tools.includes("bash") ? ["read", "read", "bash", "edit", "grep", "write"] : ["read", "edit"],
        );
        const file = random.pick(FILES);
        const args =
          name === "read"
            ? { path: file }
            : name === "bash"
              ? { command: `cd ${cwd} && npm test -- --grep "${random.pick(WORDS)}"` }
              : name === "edit"
                ? { path: file, oldText: random.pick(CODE_LINES), newText: random.pick(CODE_LINES) }
                : name === "write"
                  ? { path: file, content: textOf(random, random.int(100, 1500), true) }
                  : { pattern: random.pick(WORDS), path: "src" };
        return { type: "toolCall", id: `toolu_${newId()}${newId()}`, name, arguments: args };
      });
      const blocks = [];
      if (random.chance(0.6))
        blocks.push({
          type: "thinking",
          thinking: textOf(random, random.int(80, 700), false),
          thinkingSignature: base64Of(random, 120),
        });
      if (random.chance(0.5)) blocks.push({ type: "text", text: textOf(random, random.int(30, 300), false) });
      yield emit(
        {
          type: "message",
          message: {
            role: "assistant",
            content: blocks.concat(calls),
            api: provider === "openai" ? "openai-responses" : "anthropic-messages",
            provider,
            model,
            usage: usage(random, random.int(2_000, 150_000)),
            stopReason: "toolUse",
          },
        },
        "assistant",
      );
      for (const call of calls) {
        if (written >= entries) break;
        const median = call.name === "read" ? 1300 : 450;
        const size = Math.min(50_000, Math.max(10, Math.round(random.lognormal(median, 1.45))));
        const resultContent = [{ type: "text", text: textOf(random, size, true) }];
        if (call.name === "read" && random.chance(0.01))
          resultContent.push({
            type: "image",
            data: base64Of(random, random.int(2_000, 20_000)),
            mimeType: "image/png",
          });
        yield emit(
          {
            type: "message",
            message: {
              role: "toolResult",
              toolCallId: call.id,
              toolName: call.name,
              content: resultContent,
              isError: random.chance(0.05),
            },
          },
          "toolResult",
        );
      }
    }
    if (written < entries) {
      const blocks = [{ type: "text", text: textOf(random, random.int(60, 900), false) }];
      yield emit(
        {
          type: "message",
          message: {
            role: "assistant",
            content: blocks,
            api: "anthropic-messages",
            provider,
            model,
            usage: usage(random, random.int(2_000, 150_000)),
            stopReason: "stop",
          },
        },
        "assistant",
      );
    }
  }
}

/** Streams a generated session to `path` (overwrites). Returns { entries, bytes }. */
export function writeSessionFile(path, options) {
  const fd = openSync(path, "w");
  let bytes = 0;
  let pending = [];
  let pendingBytes = 0;
  const flush = () => {
    const chunk = Buffer.from(pending.join(""), "utf8");
    let off = 0;
    while (off < chunk.length) off += writeSync(fd, chunk, off);
    bytes += chunk.length;
    pending = [];
    pendingBytes = 0;
  };
  let count = -1; // the header is not an entry
  try {
    for (const line of generateSessionLines(options)) {
      pending.push(line, "\n");
      pendingBytes += line.length + 1;
      count++;
      if (pendingBytes > 4 * 1024 * 1024) flush();
    }
    flush();
  } finally {
    closeSync(fd);
  }
  return { entries: count, bytes };
}

function parseArgs(argv) {
  const out = { entries: 1000, seed: 1, out: undefined };
  for (let i = 0; i < argv.length; i++) {
    const key = argv[i];
    const value = argv[i + 1];
    if (key === "--entries") out.entries = Number(value);
    else if (key === "--seed") out.seed = Number(value);
    else if (key === "--out") out.out = value;
    else continue;
    i++;
  }
  return out;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const args = parseArgs(process.argv.slice(2));
  if (!args.out || !Number.isInteger(args.entries) || args.entries < 0) {
    console.error("usage: node bench/generate-session.mjs --entries N [--seed S] --out file.jsonl");
    process.exit(2);
  }
  const t = performance.now();
  const { entries, bytes } = writeSessionFile(args.out, { entries: args.entries, seed: args.seed });
  console.log(
    `${args.out}: ${entries} entries, ${(bytes / 1e6).toFixed(1)} MB (${Math.round(bytes / Math.max(entries, 1))} B/entry) in ${((performance.now() - t) / 1000).toFixed(1)} s`,
  );
}
