// Writes the hand-made fixture sessions of @arbor/compaction to src/__fixtures__/*.jsonl.
// Deterministic: ids are fixed, timestamps advance one second per entry, "random" text is seeded.
// Run: node packages/compaction/scripts/make-fixtures.mjs
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const outDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../src/__fixtures__");
mkdirSync(outDir, { recursive: true });

const usage = (input, output, total = input + output, cacheRead = 0) => ({
  input,
  output,
  cacheRead,
  cacheWrite: 0,
  totalTokens: total,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
});
const TINY_PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

function seeded(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}
const WORDS =
  "the a parse date value returns error config module test build file line function type string number export import async await promise result cache token window summary branch".split(
    " ",
  );
function prose(random, words) {
  const out = [];
  for (let i = 0; i < words; i++) out.push(WORDS[Math.floor(random() * WORDS.length)]);
  return `${out.join(" ")}.`;
}

class Session {
  constructor(name) {
    this.name = name;
    this.time = Date.parse("2025-03-10T09:00:00.000Z");
    this.lines = [
      {
        type: "session",
        version: 3,
        id: `0195${name.length.toString(16).padStart(4, "0")}-0000-7000-8000-00000000c0de`,
        timestamp: new Date(this.time).toISOString(),
        cwd: "/home/dev/project",
      },
    ];
    this.previous = null;
  }
  add(id, body, parentId) {
    if (id.length !== 8) throw new Error(`id ${id} must have 8 characters`);
    this.time += 1000;
    const entry = {
      type: body.type,
      id,
      parentId: parentId === undefined ? this.previous : parentId,
      timestamp: new Date(this.time).toISOString(),
      ...body,
    };
    if (entry.type === "message") entry.message.timestamp = this.time;
    this.lines.push(entry);
    this.previous = id;
    return entry;
  }
  at(id) {
    this.previous = id;
    return this;
  }
  system(id, fields) {
    return this.add(id, { type: "message", message: { role: "system", content: "", ...fields } });
  }
  user(id, content, parentId) {
    return this.add(id, { type: "message", message: { role: "user", content } }, parentId);
  }
  assistant(id, content, u, stopReason = "stop", extra = {}) {
    return this.add(id, {
      type: "message",
      message: {
        role: "assistant",
        content,
        api: "anthropic-messages",
        provider: "anthropic",
        model: "claude-sonnet-4",
        usage: u,
        stopReason,
        ...extra,
      },
    });
  }
  tool(id, callId, toolName, text, isError = false, extra = {}) {
    const content = typeof text === "string" ? [{ type: "text", text }] : text;
    return this.add(id, {
      type: "message",
      message: { role: "toolResult", toolCallId: callId, toolName, content, isError, ...extra },
    });
  }
  bash(id, command, output, exitCode = 0, extra = {}) {
    return this.add(id, {
      type: "message",
      message: {
        role: "bashExecution",
        command,
        output,
        exitCode,
        cancelled: false,
        truncated: false,
        ...extra,
      },
    });
  }
  write() {
    writeFileSync(
      path.join(outDir, `${this.name}.jsonl`),
      `${this.lines.map((line) => JSON.stringify(line)).join("\n")}\n`,
    );
  }
}
const call = (id, name, args) => ({ type: "toolCall", id, name, arguments: args });
const text = (value) => ({ type: "text", text: value });
const thinking = (value) => ({ type: "thinking", thinking: value, thinkingSignature: "sig" });

const TOOLS = [
  {
    name: "read",
    description: "Read a file",
    parameters: { type: "object", properties: { path: { type: "string" } } },
  },
  {
    name: "write",
    description: "Write a file",
    parameters: { type: "object", properties: { path: { type: "string" }, content: { type: "string" } } },
  },
  {
    name: "edit",
    description: "Edit a file",
    parameters: {
      type: "object",
      properties: { path: { type: "string" }, oldText: { type: "string" }, newText: { type: "string" } },
    },
  },
  {
    name: "bash",
    description: "Run a shell command",
    parameters: { type: "object", properties: { command: { type: "string" } } },
  },
];

// 1. A realistic coding session with a branch.
{
  const s = new Session("coding-session");
  const r = seeded(7);
  s.system("sys00001", {
    sections: {
      preamble: "You are a coding agent working in a TypeScript repository.",
      cwd: "Working directory: /home/dev/project",
    },
    toolsAdded: TOOLS,
  });
  s.add("mdl00001", { type: "model_change", provider: "anthropic", modelId: "claude-sonnet-4" });
  s.add("thk00001", { type: "thinking_level_change", thinkingLevel: "medium" });
  s.user(
    "usr00001",
    "The test `parses ISO dates with offsets` in test/date.test.ts fails. Fix it in src/date.ts. Don't change the public API of parseDate. Use vitest, never jest.",
  );
  s.assistant(
    "ast00001",
    [
      thinking("Start by reading the failing test and the implementation."),
      text("Let me look at the test and the implementation."),
      call("c0000001", "read", { path: "test/date.test.ts" }),
    ],
    usage(1850, 60),
    "toolUse",
  );
  s.tool(
    "tr000001",
    "c0000001",
    "read",
    `import { parseDate } from "../src/date";\n${Array.from({ length: 40 }, (_, i) => `test("case ${i}", () => { expect(parseDate("2024-01-0${(i % 9) + 1}T10:00:00+02:00").getUTCHours()).toBe(8); });`).join("\n")}`,
  );
  s.assistant("ast00002", [call("c0000002", "read", { path: "src/date.ts" })], usage(3900, 30), "toolUse");
  s.tool(
    "tr000002",
    "c0000002",
    "read",
    `export function parseDate(input: string): Date {\n  const [date, time] = input.split("T");\n  return new Date(\`\${date}T\${time.slice(0, 8)}Z\`);\n}\n${prose(r, 120)}`,
  );
  s.assistant(
    "ast00003",
    [
      thinking("The offset is dropped by slice(0, 8). Keep the offset instead."),
      text("The offset is cut off by `time.slice(0, 8)`. I will keep the offset instead of forcing Z."),
      call("c0000003", "edit", { path: "src/date.ts", oldText: "time.slice(0, 8)}Z", newText: "time}" }),
    ],
    usage(4300, 90),
    "toolUse",
  );
  s.tool("tr000003", "c0000003", "edit", "Edited src/date.ts");
  s.assistant(
    "ast00004",
    [call("c0000004", "bash", { command: "npx vitest run test/date.test.ts" })],
    usage(4450, 25),
    "toolUse",
  );
  s.tool(
    "tr000004",
    "c0000004",
    "bash",
    ` FAIL  test/date.test.ts > case 3\nAssertionError: expected 10 to be 8\n  at test/date.test.ts:5:70\n${prose(r, 600)}`,
    true,
  );
  s.assistant(
    "ast00005",
    [
      text(
        "One case still fails: dates without seconds. Because the input may omit seconds, I'll normalize the time part first.",
      ),
      call("c0000005", "edit", {
        path: "src/date.ts",
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the fixture's text is source code
        oldText: "return new Date(`${date}T${time}`);",
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the fixture's text is source code
        newText: "return new Date(`${date}T${normalizeTime(time)}`);",
      }),
    ],
    usage(7200, 120),
    "toolUse",
  );
  s.tool("tr000005", "c0000005", "edit", "Edited src/date.ts");
  s.assistant(
    "ast00006",
    [call("c0000006", "bash", { command: "npx vitest run test/date.test.ts" })],
    usage(7400, 25),
    "toolUse",
  );
  s.tool("tr000006", "c0000006", "bash", " ✓ test/date.test.ts (40 tests) 12ms\n Test Files  1 passed (1)");
  s.assistant(
    "ast00007",
    [
      text(
        "Fixed: parseDate now keeps the UTC offset and normalizes times without seconds. All 40 tests in test/date.test.ts pass.",
      ),
    ],
    usage(7600, 40),
  );
  s.add("lbl00001", { type: "label", targetId: "ast00007", label: "date-fix" });
  s.user("usr00002", "Also add a test for leap years (2024-02-29). Keep the tests in test/date.test.ts.");
  s.assistant(
    "ast00008",
    [
      call("c0000007", "edit", {
        path: "test/date.test.ts",
        oldText: "});\n",
        newText:
          '});\ntest("leap day", () => expect(parseDate("2024-02-29T00:00:00Z").getUTCDate()).toBe(29));\n',
      }),
    ],
    usage(7900, 80),
    "toolUse",
  );
  s.tool("tr000007", "c0000007", "edit", "Edited test/date.test.ts");
  s.bash("bsh00001", "npx vitest run", " Test Files  3 passed (3)\n      Tests  57 passed (57)");
  s.assistant(
    "ast00009",
    [text("Added the leap-day test; the full suite passes (57 tests).")],
    usage(8100, 30),
  );
  s.add("cst00001", {
    type: "custom_message",
    customType: "reminder",
    content: "Reminder: the CI runs on Node 20.",
    display: true,
  });
  s.user(
    "usr00003",
    "Now refactor parseDate to use Intl.DateTimeFormat for formatting the output of formatDate in src/format.ts. It must stay synchronous.",
  );
  s.assistant(
    "ast00010",
    [thinking("Read src/format.ts first."), call("c0000008", "read", { path: "src/format.ts" })],
    usage(8500, 40),
    "toolUse",
  );
  s.tool(
    "tr000008",
    "c0000008",
    "read",
    `export function formatDate(d: Date): string {\n  return d.toISOString();\n}\n${prose(r, 300)}`,
  );
  s.assistant(
    "ast00011",
    [
      text(
        "I decided to use a cached Intl.DateTimeFormat instance rather than creating one per call, because construction is slow.",
      ),
      call("c0000009", "write", {
        path: "src/format.ts",
        content:
          'const formatter = new Intl.DateTimeFormat("en-US", { timeZone: "UTC" });\nexport function formatDate(d: Date): string {\n  return formatter.format(d);\n}\n',
      }),
    ],
    usage(9300, 150),
    "toolUse",
  );
  s.tool("tr000009", "c0000009", "write", "Wrote src/format.ts");
  s.assistant(
    "ast00012",
    [call("c0000010", "bash", { command: "npx tsc --noEmit" })],
    usage(9500, 20),
    "toolUse",
  );
  s.tool(
    "tr000010",
    "c0000010",
    "bash",
    "src/format.ts(2,10): error TS2304: Cannot find name 'Intl'. Do you need to change your target library?",
    true,
  );
  s.assistant(
    "ast00013",
    [
      text(
        "Type checking fails: TS2304 Cannot find name 'Intl' in src/format.ts. Next I'll add \"ES2020\" to compilerOptions.lib in tsconfig.json and re-run tsc.",
      ),
    ],
    usage(9700, 60),
  );
  // Alternative branch after the first fix.
  s.at("ast00007");
  s.user("usr000b1", "Actually, revert the fix and use date-fns parseISO instead.");
  s.assistant(
    "ast000b1",
    [call("c00000b1", "bash", { command: "npm install date-fns" })],
    usage(7800, 20),
    "toolUse",
  );
  s.tool("tr0000b1", "c00000b1", "bash", "added 1 package in 2s");
  s.assistant(
    "ast000b2",
    [
      call("c00000b2", "write", {
        path: "src/date.ts",
        content: 'export { parseISO as parseDate } from "date-fns";\n',
      }),
    ],
    usage(7900, 30),
    "toolUse",
  );
  s.tool("tr0000b2", "c00000b2", "write", "Wrote src/date.ts");
  s.assistant("ast000b3", [text("Switched parseDate to date-fns parseISO.")], usage(8000, 15));
  s.write();
}

// 2. pi-behavior.md's demo session (section 12.2), rebuilt.
{
  const s = new Session("demo");
  s.system("s0000001", {
    sections: { preamble: "You are a coding agent.", cwd: "/home/user/proj" },
    toolsAdded: [{ name: "read", description: "Read a file", parameters: { type: "object" } }],
  });
  s.add("mc000001", { type: "model_change", provider: "anthropic", modelId: "claude-x" });
  s.add("tl000001", { type: "thinking_level_change", thinkingLevel: "medium" });
  s.user("u0000001", "Please read foo.ts and fix the bug");
  s.assistant(
    "a0000001",
    [text("Reading it."), call("c1", "read", { path: "foo.ts" })],
    usage(1000, 50, 1050),
    "toolUse",
  );
  s.tool("t0000001", "c1", "read", "x".repeat(2500));
  s.assistant(
    "a0000002",
    [thinking("the bug is on line 3"), call("c2", "edit", { path: "foo.ts", oldText: "a", newText: "b" })],
    usage(1700, 60, 1760),
    "toolUse",
  );
  s.tool("t0000002", "c2", "edit", "Edited foo.ts");
  s.assistant("a0000003", [text("Fixed the bug in foo.ts.")], usage(1800, 20, 1820));
  s.user("u0000002", [text("Now create bar.ts")]);
  s.assistant(
    "a0000004",
    [call("c3", "write", { path: "bar.ts", content: "export const bar = 1;\n" })],
    usage(1900, 40, 1940),
    "toolUse",
  );
  s.tool("t0000003", "c3", "write", "Wrote bar.ts");
  s.assistant("a0000005", [text("Created bar.ts.")], usage(2000, 10, 2010));
  s.add("cm000001", {
    type: "custom_message",
    customType: "note",
    content: "Remember: tests live in test/",
    display: true,
  });
  s.add("lb000001", { type: "label", targetId: "u0000002", label: "checkpoint" });
  s.user("u0000003", "Run the tests");
  s.assistant("a0000006", [text("All tests pass.")], usage(2100, 10, 2110));
  s.at("a0000003");
  s.user("u00000b1", "Alternative: delete foo.ts instead");
  s.assistant("a00000b1", [call("cb1", "read", { path: "baz.ts" })], usage(1900, 10, 1910), "toolUse");
  s.tool("t00000b1", "cb1", "read", "baz");
  s.assistant("a00000b2", [text("Deleted.")], usage(1950, 5, 1955));
  s.write();
}

// 3. Nested compactions, retain-none, extension compactions, system checkpoint.
{
  const s = new Session("nested-compactions");
  const r = seeded(11);
  s.system("sys00001", { sections: { preamble: "Agent prompt." }, toolsAdded: TOOLS });
  const turn = (n, files) => {
    const id = String(n).padStart(2, "0");
    s.user(`usr000${id}`, `Step ${n}: ${prose(r, 30)}`);
    s.assistant(
      `ast000${id}`,
      [
        text(prose(r, 20)),
        call(`c00000${id}`, n % 3 === 0 ? "write" : n % 3 === 1 ? "read" : "edit", { path: files }),
      ],
      usage(1000 + n * 400, 50),
      "toolUse",
    );
    s.tool(`trs000${id}`, `c00000${id}`, "read", prose(r, 80 + n * 10));
    s.assistant(`asf000${id}`, [text(`Done with step ${n}. ${prose(r, 15)}`)], usage(1200 + n * 400, 40));
  };
  turn(1, "src/a.ts");
  turn(2, "src/b.ts");
  turn(3, "src/c.ts");
  turn(4, "src/d.ts");
  s.add("cmp00001", {
    type: "compaction",
    summary: "## Goal\nFirst summary.\n\n<read-files>\nsrc/a.ts\n</read-files>",
    firstKeptEntryId: "usr00003",
    tokensBefore: 2600,
    details: { readFiles: ["src/a.ts", "old/read.ts"], modifiedFiles: ["src/b.ts"] },
    fromHook: false,
    systemMessage: {
      role: "system",
      content: "",
      sections: { preamble: "Agent prompt." },
      toolsAdded: TOOLS,
      timestamp: 0,
    },
  });
  turn(5, "src/e.ts");
  turn(6, "src/f.ts");
  // C2 keeps from before C1 (re-exposes entries C1 had summarized).
  s.add("cmp00002", {
    type: "compaction",
    summary: "## Goal\nSecond summary.",
    firstKeptEntryId: "usr00002",
    tokensBefore: 4100,
    details: { readFiles: ["src/g.ts"], modifiedFiles: ["src/h.ts"] },
    fromHook: false,
  });
  turn(7, "src/i.ts");
  turn(8, "src/j.ts");
  const afterC2 = s.previous;
  // Extension compaction: its details must not be inherited.
  s.add("cmp00003", {
    type: "compaction",
    summary: "Extension summary.",
    firstKeptEntryId: "usr00008",
    tokensBefore: 5000,
    details: { readFiles: ["ext/ignored.ts"], modifiedFiles: ["ext/ignored2.ts"] },
    fromHook: true,
  });
  turn(9, "src/k.ts");
  // Branch: retain-none compaction after turn 8.
  s.at(afterC2);
  s.add("cmp000rn", {
    type: "compaction",
    summary: "Retain-none summary.",
    firstKeptEntryId: "cmp000rn",
    tokensBefore: 6000,
    details: { readFiles: ["rn/read.ts"], modifiedFiles: [] },
    fromHook: false,
  });
  turn(20, "src/z.ts");
  turn(21, "src/y.ts");
  // Branch: compaction whose firstKeptEntryId is missing from the path.
  s.at(afterC2);
  s.add("cmp000ms", {
    type: "compaction",
    summary: "Missing-id summary.",
    firstKeptEntryId: "deadbeef",
    tokensBefore: 6000,
  });
  turn(30, "src/m.ts");
  // Branch: a compaction edited away by a context edit (replacement null).
  s.at("cmp00002");
  s.add("edt000c2", { type: "context_edit", targetId: "cmp00002", replacement: null });
  turn(40, "src/n.ts");
  s.write();
}

// 4. Overflow / truncation recovery special case.
{
  const s = new Session("recovery");
  s.system("sys00001", { sections: { preamble: "Agent prompt." } });
  s.user("usr00001", "Summarize the repository layout.");
  s.assistant("ast00001", [text("It has src/ and test/.")], usage(500, 20));
  s.user("usr00002", "y".repeat(4000));
  s.assistant("ast00002", [text("partial answer that hit the limit")], usage(1600, 4096), "length");
  s.add("edt00001", { type: "context_edit", targetId: "ast00002", replacement: null });
  const afterEdit = s.previous;
  s.add("cus00001", { type: "custom", customType: "telemetry", data: { attempt: 1 } });
  s.at(afterEdit);
  s.add("edt00002", {
    type: "context_edit",
    targetId: "usr00002",
    replacement: { content: "shorter question" },
  });
  // Tool-call variant: the failed assistant called a tool; both are omitted.
  s.at("ast00001");
  s.user("usr00003", "z".repeat(4000));
  s.assistant("ast00003", [call("c0000001", "read", { path: "big.txt" })], usage(1700, 10), "error", {
    errorMessage: "prompt is too long: 210000 tokens > 200000 maximum",
  });
  s.tool("tr000001", "c0000001", "read", "No result provided", true);
  s.add("edt00003", { type: "context_edit", targetId: "ast00003", replacement: null });
  s.add("edt00004", { type: "context_edit", targetId: "tr000001", replacement: null });
  // Variant: an external replacement edit in the suffix blocks the advance.
  s.at("ast00001");
  s.user("usr00004", "w".repeat(4000));
  s.assistant("ast00004", [text("cut")], usage(1700, 4096), "length");
  s.add("edt00005", { type: "context_edit", targetId: "ast00004", replacement: null });
  s.add("edt00006", {
    type: "context_edit",
    targetId: "ast00001",
    replacement: { content: "It has src/ and test/ (edited)." },
  });
  s.write();
}

// 5. Split turns: one long turn with many tool calls.
{
  const s = new Session("split-turn");
  const r = seeded(23);
  s.system("sys00001", { sections: { preamble: "Agent prompt." }, toolsAdded: TOOLS });
  s.user("usr00001", "List the files.");
  s.assistant("ast00001", [text("src/, test/, package.json")], usage(900, 20));
  s.user("usr00002", "Audit every module under src/ for unsafe eval calls and fix them.");
  for (let i = 1; i <= 12; i++) {
    const id = String(i).padStart(2, "0");
    s.assistant(
      `ast000${id}`.replace("ast000", "asx000"),
      [
        text(`Checking module ${i}.`),
        call(`c00000${id}`, i % 4 === 0 ? "edit" : "read", {
          path: `src/mod${i}.ts`,
          ...(i % 4 === 0 ? { oldText: "eval(x)", newText: "JSON.parse(x)" } : {}),
        }),
      ],
      usage(1000 + i * 500, 30),
      "toolUse",
    );
    s.tool(
      `trx000${id}`,
      `c00000${id}`,
      i % 4 === 0 ? "edit" : "read",
      `${prose(r, 250)}\n${"// code line\n".repeat(i * 5)}`,
      false,
      i === 6
        ? {
            nestedCalls: {
              calls: [{ id: "n1", name: "write", arguments: { path: "src/nested.ts" }, status: "ok" }],
              complete: true,
            },
          }
        : {},
    );
  }
  s.assistant(
    "asx00013",
    [text("Replaced eval in 3 modules: src/mod4.ts, src/mod8.ts, src/mod12.ts.")],
    usage(8000, 40),
  );
  s.write();
}

// 6. Images, context edits, bash executions, branch summaries, invalid usages, metadata.
{
  const s = new Session("images-and-edits");
  s.system("sys00001", { content: [text("Base prompt.")], sections: { preamble: "Agent.", removed: null } });
  s.add("inf00001", { type: "session_info", name: "images" });
  s.user("usr00001", [
    text("What is in this screenshot? "),
    { type: "image", data: TINY_PNG, mimeType: "image/png" },
    text("Be brief."),
  ]);
  s.assistant("ast00001", [text("A login form.")], usage(1300, 10));
  s.user("usr00002", [{ type: "image", data: TINY_PNG, mimeType: "image/png" }]);
  s.assistant("ast00002", [call("c0000001", "read", { path: "shot.png" })], usage(2600, 10), "toolUse");
  s.tool("tr000001", "c0000001", "read", [
    text("Read image file [image/png]"),
    { type: "image", data: TINY_PNG, mimeType: "image/png" },
  ]);
  s.assistant("ast00003", [text("Both images show the same form.")], usage(0, 0, 0), "stop");
  s.assistant("ast00004", [text("retrying")], usage(3900, 12), "error", { errorMessage: "overloaded" });
  s.assistant("ast00005", [text("partial")], usage(3900, 5), "aborted");
  s.bash("bsh00001", "ls -la", "total 8\ndrwxr-xr-x 2 dev dev 4096 .", 0);
  s.bash("bsh00002", "cat secret.env", "API_KEY=...", 0, { excludeFromContext: true });
  s.bash("bsh00003", "npm test", "1 failing", 1);
  s.add("usg00001", {
    type: "usage",
    kind: "cache_warm",
    provider: "anthropic",
    model: "claude-sonnet-4",
    usage: usage(100, 0),
  });
  s.user("usr00003", "Describe the form fields.");
  s.assistant(
    "ast00006",
    [
      text("Email, password and a submit button."),
      call("c0000002", "edit", { path: "form.html", oldText: "a", newText: "b" }),
    ],
    { ...usage(4000, 30, 0) },
    "toolUse",
  );
  s.tool("tr000002", "c0000002", "edit", "Edited form.html");
  s.add("edt00001", {
    type: "context_edit",
    targetId: "usr00001",
    replacement: { content: "What is in this screenshot? (image removed)" },
  });
  s.add("edt00002", {
    type: "context_edit",
    targetId: "ast00006",
    replacement: { content: "Email, password, submit." },
  });
  s.add("edt00003", {
    type: "context_edit",
    targetId: "tr000001",
    replacement: { content: [text("image elided")] },
  });
  s.add("cst00001", {
    type: "custom_message",
    customType: "hint",
    content: [text("Hint text "), { type: "image", data: TINY_PNG, mimeType: "image/png" }],
    display: false,
  });
  s.add("edt00004", { type: "context_edit", targetId: "cst00001", replacement: null });
  s.user("usr00004", "Thanks. Anything else?");
  s.assistant("ast00007", [text("No.")], usage(4200, 5));
  const afterFirst = s.previous;
  s.add("bsm00001", {
    type: "branch_summary",
    fromId: "zzzzzzzz",
    summary: "Branch summary text with files.",
    details: { readFiles: ["b/read.ts"], modifiedFiles: ["b/mod.ts"] },
    fromHook: false,
  });
  s.add("bsm00002", {
    type: "branch_summary",
    fromId: "yyyyyyyy",
    summary: "Extension branch summary.",
    details: { readFiles: ["ext/r.ts"], modifiedFiles: ["ext/m.ts"] },
    fromHook: true,
  });
  s.add("bsm00003", { type: "branch_summary", fromId: "xxxxxxxx", summary: "" });
  s.user("usr00005", "Continue.");
  s.assistant(
    "ast00008",
    [text("Continuing."), call("c0000003", "write", { path: "out/result.md", content: "# Result" })],
    usage(4600, 20),
    "toolUse",
  );
  s.tool("tr000003", "c0000003", "write", "Wrote out/result.md");
  s.assistant("ast00009", [text("Wrote out/result.md.")], usage(4700, 10));
  // A second branch from afterFirst, with a summary whose details are malformed.
  s.at(afterFirst);
  s.add("bsm00004", {
    type: "branch_summary",
    fromId: "wwwwwwww",
    summary: "Other branch.",
    details: { readFiles: "not-an-array" },
  });
  s.user("usr00006", "Other direction.");
  s.assistant("ast00010", [text("OK.")], usage(4300, 5));
  s.write();
}

// 7. System prompt updates and usage invalidated by edits.
{
  const s = new Session("system-updates");
  s.system("sys00001", {
    content: "Base.",
    sections: { preamble: "You are an agent.", rules: "Be careful." },
    toolsAdded: TOOLS.slice(0, 2),
  });
  s.user("usr00001", "First request with some words in it.");
  s.assistant("ast00001", [text("First answer.")], usage(700, 10));
  s.system("sys00002", {
    sections: { rules: null, extra: "New section." },
    toolsAdded: [TOOLS[2]],
    toolsRemoved: [{ name: "write" }],
  });
  s.user("usr00002", "Second request.");
  s.assistant("ast00002", [text("Second answer, longer than the first one.")], usage(900, 20));
  s.add("edt00001", {
    type: "context_edit",
    targetId: "usr00001",
    replacement: { content: "First request (edited)." },
  });
  const afterEdit = s.previous;
  s.user("usr00003", "Third request.");
  s.assistant("ast00003", [text("Third answer.")], usage(1000, 10));
  s.at(afterEdit);
  s.add("cmp00001", {
    type: "compaction",
    summary: "Compacted.",
    firstKeptEntryId: "usr00002",
    tokensBefore: 950,
    details: { readFiles: [], modifiedFiles: ["x.ts"] },
    fromHook: false,
    systemMessage: {
      role: "system",
      content: "Base.",
      sections: { preamble: "You are an agent.", extra: "New section." },
      toolsAdded: [TOOLS[0], TOOLS[2]],
      timestamp: 0,
    },
  });
  s.user("usr00004", "After compaction.");
  s.system("sys00003", { sections: { late: "Late section." } });
  s.assistant("ast00004", [text("Post-compaction answer.")], usage(1200, 10));
  s.user("usr00005", "And more.");
  s.write();
}
console.log(`fixtures written to ${outDir}`);
