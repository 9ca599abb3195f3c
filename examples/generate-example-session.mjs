// Generates examples/todo-api-pagination.jsonl: a realistic pi-format (v3) session of a coding agent
// adding pagination to the small project in examples/todo-api/. The tool results are computed from a
// virtual copy of that project (read, write and edit really apply; bash outputs are scripted), so the
// transcript is consistent with itself. Deterministic: the same script always writes the same file.
//
//   node examples/generate-example-session.mjs [output.jsonl]
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const output = process.argv[2] ?? path.join(here, "todo-api-pagination.jsonl");
const CWD = "/home/dev/projects/todo-api";
const MODEL = { api: "anthropic-messages", provider: "anthropic", model: "claude-sonnet-4-5" };
const PRICE = { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 }; // USD per million tokens

// ---------------------------------------------------------------------------------------------------
// Deterministic ids and clock
let seed = 0x5eed1e5;
function random() {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const hex = (n) => Array.from({ length: n }, () => Math.floor(random() * 16).toString(16)).join("");
const B62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const toolCallId = () => `toolu_01${Array.from({ length: 22 }, () => B62[Math.floor(random() * 62)]).join("")}`;
let clock = Date.parse("2026-03-12T09:14:03.120Z");
const tick = (seconds) => {
  clock += Math.round(seconds * 1000 + random() * 900);
  return clock;
};

// ---------------------------------------------------------------------------------------------------
// The virtual project
const files = new Map();
function loadProject(dir, prefix = "") {
  for (const name of fs.readdirSync(dir).sort()) {
    const full = path.join(dir, name);
    const rel = prefix ? `${prefix}/${name}` : name;
    if (fs.statSync(full).isDirectory()) loadProject(full, rel);
    else files.set(rel, fs.readFileSync(full, "utf8"));
  }
}
loadProject(path.join(here, "todo-api"));
let committed = new Map(files);


function runRead({ path: file, offset = 1, limit }) {
  const text = files.get(file);
  if (text === undefined) throw new Error(`File not found: ${file}`);
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  const shown = lines.slice(offset - 1, limit ? offset - 1 + limit : undefined);
  const last = offset - 1 + shown.length;
  let result = shown.join("\n");
  if (last < lines.length) {
    result += `\n\n[Showing lines ${offset}-${last} of ${lines.length}. Use offset=${last + 1} to continue.]`;
  }
  return result;
}
function runWrite({ path: file, content }) {
  const existed = files.has(file);
  files.set(file, content);
  return `${existed ? "Overwrote" : "Created"} ${file} (${Buffer.byteLength(content)} bytes)`;
}
function runEdit({ path: file, oldText, newText }) {
  const text = files.get(file);
  if (text === undefined) throw new Error(`File not found: ${file}`);
  const count = text.split(oldText).length - 1;
  if (count === 0) throw new Error(`oldText was not found in ${file}; it must match exactly`);
  if (count > 1) {
    throw new Error(`oldText occurs ${count} times in ${file}; include more surrounding text so it matches once`);
  }
  const index = text.indexOf(oldText);
  files.set(file, text.slice(0, index) + newText + text.slice(index + oldText.length));
  const first = text.slice(0, index).split("\n").length;
  return `Edited ${file} (lines ${first}-${first + newText.split("\n").length - 1})`;
}

// ---------------------------------------------------------------------------------------------------
// The session writer
const lines = [];
const byId = new Map();
let leaf = null;
const header = {
  type: "session",
  version: 3,
  id: "019ce1a2-5f3b-7c41-9a2e-3d8f0b6c4e17",
  timestamp: new Date(clock).toISOString(),
  cwd: CWD,
};
lines.push(header);

function append(body, seconds = 1) {
  const time = tick(seconds);
  const entry = { type: body.type, id: hex(8), parentId: leaf, timestamp: new Date(time).toISOString(), ...body };
  if (entry.message) entry.message.timestamp = time;
  lines.push(entry);
  byId.set(entry.id, entry);
  leaf = entry.id;
  return entry;
}

function pathMessages() {
  const result = [];
  for (let id = leaf; id; id = byId.get(id).parentId) {
    const entry = byId.get(id);
    if (entry.type === "message") result.unshift(entry.message);
    if (entry.type === "branch_summary") result.unshift({ role: "branchSummary", summary: entry.summary });
  }
  return result;
}
function estimate(message) {
  const textOf = (content) =>
    typeof content === "string"
      ? content.length
      : content.reduce(
          (sum, block) =>
            sum +
            (block.text?.length ?? 0) +
            (block.thinking?.length ?? 0) +
            (block.type === "toolCall" ? block.name.length + JSON.stringify(block.arguments).length : 0),
          0,
        );
  if (message.role === "system") {
    return Math.ceil(
      (Object.values(message.sections ?? {}).join("").length + JSON.stringify(message.toolsAdded ?? []).length) / 4,
    );
  }
  if (message.role === "branchSummary") return Math.ceil(message.summary.length / 4);
  return Math.ceil(textOf(message.content) / 4);
}
let cachedPrefix = 0;
function usageFor(content) {
  const context = pathMessages().reduce((sum, message) => sum + estimate(message), 0);
  const prompt = Math.round(context * 1.07) + 9;
  const cacheRead = Math.min(cachedPrefix, prompt - 3);
  const cacheWrite = prompt - cacheRead - 3;
  const outputTokens = Math.max(12, Math.round(estimate({ role: "assistant", content }) * 1.1));
  cachedPrefix = prompt;
  const cost = {
    input: (3 * PRICE.input) / 1e6,
    output: (outputTokens * PRICE.output) / 1e6,
    cacheRead: (cacheRead * PRICE.cacheRead) / 1e6,
    cacheWrite: (cacheWrite * PRICE.cacheWrite) / 1e6,
  };
  cost.total = cost.input + cost.output + cost.cacheRead + cost.cacheWrite;
  for (const key of Object.keys(cost)) cost[key] = Number(cost[key].toFixed(6));
  return {
    input: 3,
    output: outputTokens,
    cacheRead,
    cacheWrite,
    totalTokens: 3 + outputTokens + cacheRead + cacheWrite,
    cost,
  };
}

function user(text) {
  return append({ type: "message", message: { role: "user", content: [{ type: "text", text }] } }, 40);
}

/**
 * One assistant response and its tool calls. `calls` are [name, args, bash?] where bash is
 * { output, exitCode = 0, effect? } for the bash tool.
 */
function assistant({ thinking, text, calls = [] }) {
  const content = [];
  if (thinking) content.push({ type: "thinking", thinking, thinkingSignature: `Eq${hex(48)}` });
  if (text) content.push({ type: "text", text });
  const scheduled = calls.map(([name, args, bash]) => ({ id: toolCallId(), name, args, bash }));
  for (const call of scheduled) content.push({ type: "toolCall", id: call.id, name: call.name, arguments: call.args });
  const entry = append(
    {
      type: "message",
      message: {
        role: "assistant",
        content,
        ...MODEL,
        usage: usageFor(content),
        stopReason: scheduled.length > 0 ? "toolUse" : "stop",
      },
    },
    4 + content.length * 3,
  );
  for (const call of scheduled) {
    let resultText;
    let isError = false;
    try {
      if (call.name === "read") resultText = runRead(call.args);
      else if (call.name === "write") resultText = runWrite(call.args);
      else if (call.name === "edit") resultText = runEdit(call.args);
      else {
        call.bash.effect?.();
        const shown = call.bash.output.length > 0 ? call.bash.output : "(no output)";
        if ((call.bash.exitCode ?? 0) !== 0) {
          isError = true;
          resultText = `${shown}\n\nCommand exited with code ${call.bash.exitCode}`;
        } else resultText = shown;
      }
    } catch (error) {
      isError = true;
      resultText = error.message;
    }
    append(
      {
        type: "message",
        message: {
          role: "toolResult",
          toolCallId: call.id,
          toolName: call.name,
          content: [{ type: "text", text: resultText }],
          isError,
        },
      },
      call.name === "bash" ? 3 : 0.2,
    );
  }
  return entry;
}

function failedResponse(errorMessage) {
  return append(
    {
      type: "message",
      message: {
        role: "assistant",
        content: [],
        ...MODEL,
        usage: {
          input: 0,
          output: 0,
          cacheRead: 0,
          cacheWrite: 0,
          totalTokens: 0,
          cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
        },
        stopReason: "error",
        errorMessage,
      },
    },
    30,
  );
}

const bash = (command, output, exitCode = 0, effect) => ["bash", { command }, { output, exitCode, effect }];
const read = (file, extra = {}) => ["read", { path: file, ...extra }];
const write = (file, content) => ["write", { path: file, content }];
const edit = (file, oldText, newText) => ["edit", { path: file, oldText, newText }];

const helpers = {
  append,
  assistant,
  bash,
  edit,
  failedResponse,
  files,
  read,
  user,
  write,
  getLeaf: () => leaf,
  setLeaf: (id) => {
    leaf = id;
  },
  commit: () => {
    committed = new Map(files);
  },
  revert: () => {
    files.clear();
    for (const [name, text] of committed) files.set(name, text);
  },
};

const { writeStory } = await import("./example-session-story.mjs");
writeStory(helpers);
fs.writeFileSync(output, `${lines.map((line) => JSON.stringify(line)).join("\n")}\n`);
const bytes = fs.statSync(output).size;
console.log(`wrote ${output}: ${lines.length - 1} entries, ${(bytes / 1024).toFixed(1)} KB`);
