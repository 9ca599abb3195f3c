// The scripted conversation behind examples/todo-api-pagination.jsonl (see generate-example-session.mjs).

const SYSTEM_PREAMBLE = `You are an expert coding assistant working in the user's repository. You help by reading files, running commands, editing code and writing new files.

Guidelines:
- Read the relevant files before changing them; prefer small, targeted edits.
- Run the tests and the type checker after a change and fix what breaks.
- Keep the user's conventions (formatting, naming, test style).
- Explain briefly what you changed and why; show file paths.
- Never invent command output: run the command.`;

const TOOL_GUIDE = `Available tools:
- read: read a file (offset/limit for large files)
- write: create or overwrite a file
- edit: replace one exact occurrence of oldText with newText
- bash: run a shell command in the working folder (optional timeout in seconds)`;

const TOOLS = [
  {
    name: "read",
    description:
      "Read a file. Text output is limited to 2000 lines or 50 KB; use offset (1-based line) and limit to page through larger files.",
    parameters: {
      type: "object",
      properties: {
        path: { type: "string", description: "File to read, relative to the working folder or absolute" },
        offset: { type: "number", description: "First line to return (1-based)" },
        limit: { type: "number", description: "Maximum number of lines to return" },
      },
      required: ["path"],
    },
  },
  {
    name: "write",
    description: "Write a file: creates it (and its parent folders) or overwrites it with the given content.",
    parameters: {
      type: "object",
      properties: { path: { type: "string" }, content: { type: "string" } },
      required: ["path", "content"],
    },
  },
  {
    name: "edit",
    description:
      "Edit a file by exact text replacement: oldText must match exactly one region of the file; it is replaced by newText.",
    parameters: {
      type: "object",
      properties: { path: { type: "string" }, oldText: { type: "string" }, newText: { type: "string" } },
      required: ["path", "oldText", "newText"],
    },
  },
  {
    name: "bash",
    description: "Run a shell command in the working folder. Returns stdout and stderr. Optional timeout in seconds.",
    parameters: {
      type: "object",
      properties: { command: { type: "string" }, timeout: { type: "number" } },
      required: ["command"],
    },
  },
];

const PAGINATION_V1 = `export interface Page {
  limit: number;
  offset: number;
}

export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 200;

export class PaginationError extends Error {}

/** Reads \`limit\` and \`offset\` from the query string; throws PaginationError for bad values. */
export function parsePagination(params: URLSearchParams): Page {
  const limit = readInteger(params, "limit") ?? DEFAULT_LIMIT;
  const offset = readInteger(params, "offset");
  if (limit < 1) throw new PaginationError("limit must be at least 1");
  return { limit: Math.min(limit, MAX_LIMIT), offset };
}

function readInteger(params: URLSearchParams, name: string): number | undefined {
  const raw = params.get(name);
  if (raw === null) return undefined;
  if (!/^\\d+$/.test(raw)) {
    throw new PaginationError(\`\${name} must be a non-negative integer, got "\${raw}"\`);
  }
  return Number(raw);
}
`;

const PAGINATION_TEST = `import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createApp } from "../src/server.js";
import { TodoStore } from "../src/todos/store.js";

let server: ReturnType<typeof createApp>;
let base: string;
let store: TodoStore;

beforeEach(async () => {
  store = new TodoStore(() => new Date("2024-01-01T00:00:00Z"));
  server = createApp(store);
  await new Promise<void>((resolve) => server.listen(0, resolve));
  base = \`http://127.0.0.1:\${(server.address() as AddressInfo).port}\`;
});

afterEach(async () => {
  await new Promise((resolve) => server.close(resolve));
});

function seed(count: number) {
  for (let i = 1; i <= count; i++) store.create({ title: \`todo \${i}\` });
}

async function titles(res: Response): Promise<string[]> {
  return (await res.json()).map((todo: { title: string }) => todo.title);
}

describe("pagination", () => {
  it("returns the first 50 todos by default", async () => {
    seed(60);
    const res = await fetch(\`\${base}/todos\`);
    expect(await titles(res)).toHaveLength(50);
    expect(res.headers.get("x-total-count")).toBe("60");
  });

  it("respects limit and offset", async () => {
    seed(10);
    const res = await fetch(\`\${base}/todos?limit=3&offset=4\`);
    expect(await titles(res)).toEqual(["todo 5", "todo 6", "todo 7"]);
  });

  it("sets a next link when more todos remain", async () => {
    seed(5);
    const res = await fetch(\`\${base}/todos?limit=2\`);
    expect(res.headers.get("x-total-count")).toBe("5");
    expect(res.headers.get("link")).toBe('</todos?limit=2&offset=2>; rel="next"');
  });

  it("has no next link on the last page", async () => {
    seed(5);
    const res = await fetch(\`\${base}/todos?limit=2&offset=4\`);
    expect(await titles(res)).toEqual(["todo 5"]);
    expect(res.headers.get("link")).toBeNull();
  });

  it("returns an empty page past the end", async () => {
    seed(3);
    const res = await fetch(\`\${base}/todos?offset=10\`);
    expect(res.status).toBe(200);
    expect(await titles(res)).toEqual([]);
  });

  it("rejects a non-numeric limit", async () => {
    const res = await fetch(\`\${base}/todos?limit=ten\`);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: "invalid_query",
      message: 'limit must be a non-negative integer, got "ten"',
    });
  });

  it("rejects limit 0", async () => {
    const res = await fetch(\`\${base}/todos?limit=0\`);
    expect(res.status).toBe(400);
  });

  it("rejects limit above 200", async () => {
    const res = await fetch(\`\${base}/todos?limit=500\`);
    expect(res.status).toBe(400);
    expect((await res.json()).message).toBe("limit must be between 1 and 200, got 500");
  });
});
`;

const CONFIG_V1 = `import { DEFAULT_LIMIT, MAX_LIMIT } from "./http/pagination.js";

export interface Config {
  port: number;
  pageSize: number;
}

/** Reads the configuration from the environment; throws with a readable message on bad values. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = Number(env.PORT ?? 3000);
  const pageSize = Number(env.TODO_PAGE_SIZE) || DEFAULT_LIMIT;
  if (!Number.isInteger(pageSize) || pageSize > MAX_LIMIT) {
    throw new Error(\`TODO_PAGE_SIZE must be an integer between 1 and \${MAX_LIMIT}, got "\${env.TODO_PAGE_SIZE}"\`);
  }
  return { port, pageSize };
}
`;

const CONFIG_TEST = `import { describe, expect, it } from "vitest";
import { loadConfig } from "../src/config.js";

describe("loadConfig", () => {
  it("uses the defaults", () => {
    expect(loadConfig({})).toEqual({ port: 3000, pageSize: 50 });
  });

  it("reads PORT and TODO_PAGE_SIZE", () => {
    expect(loadConfig({ PORT: "8080", TODO_PAGE_SIZE: "25" })).toEqual({ port: 8080, pageSize: 25 });
  });

  it("rejects a page size of 0", () => {
    expect(() => loadConfig({ TODO_PAGE_SIZE: "0" })).toThrow("TODO_PAGE_SIZE must be an integer between 1 and 200");
  });

  it("rejects a non-numeric page size", () => {
    expect(() => loadConfig({ TODO_PAGE_SIZE: "lots" })).toThrow('got "lots"');
  });

  it("rejects a page size above the maximum", () => {
    expect(() => loadConfig({ TODO_PAGE_SIZE: "500" })).toThrow('got "500"');
  });
});
`;


const FETCH_ALL = `/** Fetches every todo, following the rel="next" links of the paginated GET /todos. */
export async function fetchTodos(apiUrl: string): Promise<Todo[]> {
  const todos: Todo[] = [];
  let url: string | undefined = \`\${apiUrl}/todos?limit=200\`;
  while (url) {
    const res = await fetch(url);
    if (!res.ok) throw new Error(\`GET \${url} failed with \${res.status}\`);
    todos.push(...((await res.json()) as Todo[]));
    const next = parseNextLink(res.headers.get("link"));
    url = next ? new URL(next).toString() : undefined;
  }
  return todos;
}

/** The target of the rel="next" entry of a Link header, if any. */
export function parseNextLink(header: string | null): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(",")) {
    const match = /<([^>]+)>\\s*;\\s*rel="?next"?/.exec(part);
    if (match) return match[1];
  }
  return undefined;
}`;

const DIGEST_TEST = `import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { buildDigest, fetchTodos, parseNextLink } from "../scripts/digest.js";
import { createApp } from "../src/server.js";
import { TodoStore } from "../src/todos/store.js";

let server: ReturnType<typeof createApp>;
let base: string;
let store: TodoStore;

beforeEach(async () => {
  store = new TodoStore(() => new Date("2024-01-01T00:00:00Z"));
  server = createApp(store);
  await new Promise<void>((resolve) => server.listen(0, resolve));
  base = \`http://127.0.0.1:\${(server.address() as AddressInfo).port}\`;
});

afterEach(async () => {
  await new Promise((resolve) => server.close(resolve));
});

describe("digest", () => {
  it("fetches every todo across pages", async () => {
    for (let i = 1; i <= 450; i++) store.create({ title: \`todo \${i}\`, done: i % 3 === 0 });
    const todos = await fetchTodos(base);
    expect(todos).toHaveLength(450);
    expect(todos.at(-1)?.title).toBe("todo 450");
  });

  it("reads the next link", () => {
    expect(parseNextLink('</todos?limit=2&offset=2>; rel="next"')).toBe("/todos?limit=2&offset=2");
    expect(parseNextLink('</a>; rel="prev", </b>; rel="next"')).toBe("/b");
    expect(parseNextLink(null)).toBeUndefined();
  });

  it("counts open and finished todos", () => {
    const todos = [
      { id: 1, title: "a", done: false, createdAt: "2024-01-01T00:00:00.000Z" },
      { id: 2, title: "b", done: true, createdAt: "2024-01-05T00:00:00.000Z" },
    ];
    const digest = buildDigest(todos, new Date("2024-01-02T00:00:00Z"));
    expect([digest.open.length, digest.finished.length, digest.oldestOpen?.title]).toEqual([1, 1, "a"]);
  });
});
`;

const vitestHeader = `
> todo-api@0.3.0 test
> vitest run


 RUN  v1.4.0 /home/dev/projects/todo-api
`;

function vitestFooter(files, tests, startAt, duration) {
  return `
 Test Files  ${files}
      Tests  ${tests}
   Start at  ${startAt}
   Duration  ${duration}`;
}

export function writeStory(h) {
  const { append, assistant, bash, edit, read, user, write } = h;

  append(
    {
      type: "message",
      message: {
        role: "system",
        content: "",
        sections: {
          preamble: SYSTEM_PREAMBLE,
          tools: TOOL_GUIDE,
          environment: "Working folder: /home/dev/projects/todo-api\nPlatform: linux\nShell: bash",
          project: "Project notes (AGENTS.md): TypeScript, ESM, vitest. Run `npm test` before you finish.",
        },
        toolsAdded: TOOLS,
      },
    },
    0.1,
  );
  append({ type: "model_change", provider: "anthropic", modelId: "claude-sonnet-4-5" }, 0.1);
  append({ type: "thinking_level_change", thinkingLevel: "medium" }, 0.1);

  // ---- Task 0: a health check ------------------------------------------------------------------------
  user("Hi! Before we change anything: install the dependencies and check that the type check and the tests pass on main.");
  assistant({
    calls: [
      bash(
        "npm ci",
        `
added 64 packages, and audited 65 packages in 4s

12 packages are looking for funding
  run \`npm fund\` for details

found 0 vulnerabilities`,
      ),
    ],
  });
  assistant({ calls: [bash("npx tsc --noEmit", "")] });
  assistant({
    calls: [
      bash(
        "npm test",
        `${vitestHeader}
 ✓ test/server.test.ts  (6 tests) 52ms
${vitestFooter("1 passed (1)", "6 passed (6)", "09:15:31", "512ms (transform 70ms, setup 0ms, collect 121ms, tests 52ms, environment 0ms, prepare 95ms)")}`,
      ),
    ],
  });
  assistant({
    text: "All good: dependencies installed (64 packages, no vulnerabilities), the type check is clean and the 6 tests in `test/server.test.ts` pass.",
  });

  // ---- Task 1: offset pagination ------------------------------------------------------------------
  user(
    "GET /todos returns every todo at once and the list is getting big in production (some accounts have 3k+ todos). Add pagination: `?limit=` (default 50, max 200) and `?offset=` (default 0). Invalid values should give a 400 with a clear message. Keep the response backwards compatible if you can, and add tests.",
  );
  assistant({
    thinking:
      "Let me look at the layout of the project first: where the routes are, how the store lists todos and what the tests look like.",
    calls: [bash("ls -R scripts src test && cat package.json", `scripts:
digest.ts

src:
index.ts
server.ts
todos

src/todos:
store.ts
types.ts

test:
server.test.ts
${h.files.get("package.json").trimEnd()}`)],
  });
  assistant({ calls: [read("src/server.ts")] });
  assistant({ calls: [read("src/todos/store.ts")] });
  assistant({ calls: [read("test/server.test.ts")] });
  assistant({
    thinking:
      "The list endpoint returns a bare JSON array and the mobile app depends on that. To stay backwards compatible I should keep the array and put the paging metadata in headers: X-Total-Count and a Link header with rel=next, like GitHub does. Parsing belongs in its own module so the route stays small. Validation: limit must be an integer 1..200, offset an integer >= 0.",
    text: `The list endpoint returns a bare array, and clients rely on that, so I'll keep the body as is and put the paging metadata in headers:

- \`X-Total-Count\`: the total number of todos
- \`Link: </todos?limit=…&offset=…>; rel="next"\` when more todos remain

Plan:
1. \`src/http/pagination.ts\`: parse and validate \`limit\`/\`offset\` (400 on bad input)
2. \`TodoStore.list(page?)\`: slice in id order
3. Wire it into \`GET /todos\`
4. Tests in \`test/pagination.test.ts\``,
    calls: [write("src/http/pagination.ts", PAGINATION_V1)],
  });
  assistant({
    calls: [
      edit(
        "src/todos/store.ts",
        `  list(): Todo[] {
    return [...this.#todos.values()].sort((a, b) => a.id - b.id);
  }`,
        `  /** Todos in id order; with \`page\`, only that slice (an offset past the end gives []). */
  list(page?: { limit: number; offset: number }): Todo[] {
    const all = [...this.#todos.values()].sort((a, b) => a.id - b.id);
    return page ? all.slice(page.offset, page.offset + page.limit) : all;
  }`,
      ),
    ],
  });
  assistant({
    calls: [
      edit(
        "src/server.ts",
        `if (req.method === "GET" && id === undefined) {
  return sendJson(res, 200, store.list());
}`,
        `if (req.method === "GET" && id === undefined) {
  return listTodos(store, url, res);
}`,
      ),
    ],
  });
  assistant({
    text: "The indentation didn't match. Let me look at the exact lines.",
    calls: [read("src/server.ts", { offset: 15, limit: 10 })],
  });
  assistant({
    calls: [
      edit(
        "src/server.ts",
        `  if (req.method === "GET" && id === undefined) {
    return sendJson(res, 200, store.list());
  }`,
        `  if (req.method === "GET" && id === undefined) {
    let page: Page;
    try {
      page = parsePagination(url.searchParams);
    } catch (error) {
      if (error instanceof PaginationError) {
        return sendJson(res, 400, { error: "invalid_query", message: error.message });
      }
      throw error;
    }
    res.setHeader("x-total-count", String(store.size));
    const next = page.offset + page.limit;
    if (next < store.size) {
      res.setHeader("link", \`</todos?offset=\${next}&limit=\${page.limit}>; rel="next"\`);
    }
    return sendJson(res, 200, store.list(page));
  }`,
      ),
    ],
  });
  assistant({
    calls: [
      edit(
        "src/server.ts",
        `import { TodoStore } from "./todos/store.js";`,
        `import { type Page, PaginationError, parsePagination } from "./http/pagination.js";
import { TodoStore } from "./todos/store.js";`,
      ),
    ],
  });
  assistant({
    calls: [
      bash(
        "npx tsc --noEmit",
        `src/http/pagination.ts(16,47): error TS2322: Type 'number | undefined' is not assignable to type 'number'.
  Type 'undefined' is not assignable to type 'number'.`,
        2,
      ),
    ],
  });
  assistant({
    text: "`offset` needs its default. Fixing that:",
    calls: [
      edit(
        "src/http/pagination.ts",
        `  const offset = readInteger(params, "offset");`,
        `  const offset = readInteger(params, "offset") ?? 0;`,
      ),
    ],
  });
  assistant({ calls: [bash("npx tsc --noEmit", "")] });
  assistant({
    calls: [
      bash(
        "npm test",
        `${vitestHeader}
 ✓ test/server.test.ts  (6 tests) 51ms
${vitestFooter("1 passed (1)", "6 passed (6)", "09:21:44", "498ms (transform 71ms, setup 0ms, collect 118ms, tests 51ms, environment 0ms, prepare 96ms)")}`,
      ),
    ],
  });
  assistant({
    text: "Existing tests still pass. Now the pagination tests:",
    calls: [write("test/pagination.test.ts", PAGINATION_TEST)],
  });
  assistant({
    calls: [
      bash(
        "npm test",
        `${vitestHeader}
 ✓ test/server.test.ts  (6 tests) 49ms
 ❯ test/pagination.test.ts  (8 tests | 2 failed) 63ms
   ❯ test/pagination.test.ts > pagination > sets a next link when more todos remain
     → expected '</todos?offset=2&limit=2>; rel="next"' to be '</todos?limit=2&offset=2>; rel="next"' // Object.is equality
   ❯ test/pagination.test.ts > pagination > rejects limit above 200
     → expected 200 to be 400 // Object.is equality

⎯⎯⎯⎯⎯⎯⎯ Failed Tests 2 ⎯⎯⎯⎯⎯⎯⎯

 FAIL  test/pagination.test.ts > pagination > sets a next link when more todos remain
AssertionError: expected '</todos?offset=2&limit=2>; rel="next"' to be '</todos?limit=2&offset=2>; rel="next"' // Object.is equality

- Expected
+ Received

- </todos?limit=2&offset=2>; rel="next"
+ </todos?offset=2&limit=2>; rel="next"

 ❯ test/pagination.test.ts:47:37
     45|     const res = await fetch(\`\${base}/todos?limit=2\`);
     46|     expect(res.headers.get("x-total-count")).toBe("5");
     47|     expect(res.headers.get("link")).toBe('</todos?limit=2&offset=2>; rel="next"');
       |                                     ^
     48|   });
     49|

⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯[1/2]⎯

 FAIL  test/pagination.test.ts > pagination > rejects limit above 200
AssertionError: expected 200 to be 400 // Object.is equality

- Expected
+ Received

- 400
+ 200

 ❯ test/pagination.test.ts:86:24
     84|   it("rejects limit above 200", async () => {
     85|     const res = await fetch(\`\${base}/todos?limit=500\`);
     86|     expect(res.status).toBe(400);
       |                        ^
     87|     expect((await res.json()).message).toBe("limit must be between 1 and 200, got 500");
     88|   });

⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯[2/2]⎯
${vitestFooter("1 failed | 1 passed (2)", "2 failed | 12 passed (14)", "09:23:02", "655ms (transform 92ms, setup 0ms, collect 160ms, tests 112ms, environment 0ms, prepare 104ms)")}`,
        1,
      ),
    ],
  });
  assistant({
    thinking:
      "Two real issues. 1) The Link URL puts offset before limit; the test expects limit first, which also matches how the user writes the query. 2) I clamp limit to 200 silently, but the user asked for a 400 on invalid values, and a limit of 500 is invalid. Rejecting is more honest than clamping: a client asking for 500 would otherwise think it got everything.",
    text: "Two genuine problems: the `Link` URL has its parameters in the opposite order from the request, and a limit above 200 is silently clamped although you asked for a 400 on invalid values. Fixing both:",
    calls: [
      edit(
        "src/http/pagination.ts",
        `  if (limit < 1) throw new PaginationError("limit must be at least 1");
  return { limit: Math.min(limit, MAX_LIMIT), offset };`,
        `  if (limit < 1 || limit > MAX_LIMIT) {
    throw new PaginationError(\`limit must be between 1 and \${MAX_LIMIT}, got \${limit}\`);
  }
  return { limit, offset };`,
      ),
    ],
  });
  assistant({
    calls: [
      edit(
        "src/server.ts",
        "`</todos?offset=${next}&limit=${page.limit}>; rel=\"next\"`",
        "`</todos?limit=${page.limit}&offset=${next}>; rel=\"next\"`",
      ),
    ],
  });
  assistant({
    calls: [
      bash(
        "npm test",
        `${vitestHeader}
 ✓ test/server.test.ts  (6 tests) 47ms
 ✓ test/pagination.test.ts  (8 tests) 58ms
${vitestFooter("2 passed (2)", "14 passed (14)", "09:24:19", "590ms (transform 88ms, setup 0ms, collect 149ms, tests 105ms, environment 0ms, prepare 99ms)")}`,
      ),
    ],
  });
  assistant({
    calls: [
      bash(
        "git diff --stat && git status --short",
        ` src/server.ts       | 19 ++++++++++++++++++-
 src/todos/store.ts  |  6 ++++--
 2 files changed, 22 insertions(+), 3 deletions(-)
 M src/server.ts
 M src/todos/store.ts
?? src/http/
?? test/pagination.test.ts`,
      ),
    ],
  });
  const doneV1 = assistant({
    text: `Pagination is in place and all 14 tests pass.

**Behaviour of \`GET /todos\`**
- \`?limit=\` (1–200, default 50) and \`?offset=\` (≥ 0, default 0); todos stay in id order
- The body is still a plain array, so existing clients keep working
- \`X-Total-Count\` carries the total; \`Link: </todos?limit=2&offset=2>; rel="next"\` appears while more todos remain
- Bad values give \`400 {"error":"invalid_query","message":"limit must be between 1 and 200, got 500"}\`

**Files**
- \`src/http/pagination.ts\` (new): \`parsePagination\`, \`PaginationError\`, \`DEFAULT_LIMIT\`, \`MAX_LIMIT\`
- \`src/todos/store.ts\`: \`list(page?)\` slices after sorting
- \`src/server.ts\`: validation, headers, 400 on bad input
- \`test/pagination.test.ts\` (new): 8 tests

Nothing is committed yet.`,
  });
  append({ type: "session_info", name: "todo-api: paginate GET /todos" }, 20);
  const label = append({ type: "label", targetId: doneV1.id, label: "offset-pagination" }, 6);

  // ---- Branch: a cursor-based experiment, abandoned -----------------------------------------------
  user(
    "Before we go further: would cursor-based pagination (`?after=<id>&limit=`) fit the mobile app's infinite scroll better? Try it so we can compare, but keep the offset version safe.",
  );
  assistant({
    text: "I'll commit the offset version first so the experiment is easy to throw away.",
    calls: [
      bash(
        'git add -A && git commit -qm "Add offset pagination to GET /todos" && git log --oneline -3',
        `a3f9c12 Add offset pagination to GET /todos
5b0e7d4 Trim titles on update
9c21f0a Add PATCH and DELETE endpoints`,
        0,
        h.commit,
      ),
    ],
  });
  assistant({
    calls: [
      edit(
        "src/todos/store.ts",
        `  update(id: number, patch: Partial<NewTodo>): Todo | undefined {`,
        `  /** Up to \`limit\` todos with an id greater than \`afterId\`, in id order. */
  listAfter(afterId: number, limit: number): Todo[] {
    return this.list().filter((todo) => todo.id > afterId).slice(0, limit);
  }

  update(id: number, patch: Partial<NewTodo>): Todo | undefined {`,
      ),
    ],
  });
  assistant({
    calls: [
      edit(
        "src/server.ts",
        `    res.setHeader("x-total-count", String(store.size));`,
        `    const after = url.searchParams.get("after");
    if (after !== null) {
      const items = store.listAfter(Number(after), page.limit);
      const last = items.at(-1);
      if (last && store.listAfter(last.id, 1).length > 0) {
        res.setHeader("link", \`</todos?after=\${last.id}&limit=\${page.limit}>; rel="next"\`);
      }
      return sendJson(res, 200, items);
    }
    res.setHeader("x-total-count", String(store.size));`,
      ),
    ],
  });
  assistant({
    calls: [
      bash(
        "npm test && git diff --stat",
        `${vitestHeader}
 ✓ test/server.test.ts  (6 tests) 50ms
 ✓ test/pagination.test.ts  (8 tests) 61ms
${vitestFooter("2 passed (2)", "14 passed (14)", "09:31:52", "603ms (transform 90ms, setup 0ms, collect 151ms, tests 111ms, environment 0ms, prepare 97ms)")}
 src/server.ts      | 10 ++++++++++
 src/todos/store.ts |  5 +++++
 2 files changed, 15 insertions(+)`,
      ),
    ],
  });
  assistant({
    text: `A cursor variant works alongside offset (\`?after=<id>&limit=\`), and the existing tests pass. How they compare:

| | offset (committed) | cursor (this experiment) |
|---|---|---|
| stable under inserts/deletes while scrolling | no: items can shift or repeat | yes |
| jump to page N | yes | no |
| total count | cheap (\`X-Total-Count\`) | needs a separate count |
| cost with a database later | \`OFFSET\` gets slower on deep pages | index seek, constant |

For infinite scroll, cursor is nicer, but the app's list screen also shows "page 3 of 12", which cursor cannot do without a count query. I'd keep offset now and add \`after\` later if the digest job needs stable iteration over everything.`,
  });
  user("Agreed, let's stay with offset for now. Throw the experiment away.");
  const branchEnd = assistant({
    calls: [bash("git checkout -- . && git status --short && git log --oneline -1", "a3f9c12 Add offset pagination to GET /todos", 0, h.revert)],
  });
  assistant({ text: "Reverted: the working tree is back at `a3f9c12` (offset pagination)." });
  const abandonedLeaf = h.getLeaf();

  // The user goes back to the labelled point and asks for a summary of the abandoned branch.
  h.setLeaf(label.id);
  append(
    {
      type: "branch_summary",
      fromId: abandonedLeaf,
      summary: `The user explored a different conversation branch before returning here.
Summary of that exploration:

## Goal
Compare cursor-based pagination (\`?after=<id>&limit=\`) with the offset pagination just added to GET /todos.

## Constraints & Preferences
- Keep the offset version safe (it was committed first)
- The response body stays a plain array

## Progress
### Done
- [x] Committed offset pagination as a3f9c12 "Add offset pagination to GET /todos"
- [x] Prototyped \`TodoStore.listAfter(afterId, limit)\` and an \`after\` query parameter with a rel="next" Link header; all 14 tests passed
- [x] Reverted the prototype with \`git checkout -- .\`; working tree clean at a3f9c12

### In Progress
(none)

### Blocked
(none)

## Key Decisions
- **Stay with offset pagination**: the app's list screen shows "page N of M", which cursor pagination cannot serve without a count query; revisit cursors if the digest job needs stable iteration

## Next Steps
1. Continue from the committed offset pagination

<modified-files>
src/server.ts
src/todos/store.ts
</modified-files>`,
      details: { readFiles: [], modifiedFiles: ["src/server.ts", "src/todos/store.ts"] },
      fromHook: false,
      usage: {
        input: 2431,
        output: 402,
        cacheRead: 0,
        cacheWrite: 0,
        totalTokens: 2833,
        cost: { input: 0.007293, output: 0.00603, cacheRead: 0, cacheWrite: 0, total: 0.013323 },
      },
    },
    25,
  );
  void branchEnd;

  // ---- Task 2: configurable page size ---------------------------------------------------------------
  user(
    "Ops wants to tune the default page size without a deploy. Make it configurable with an env var `TODO_PAGE_SIZE` (still capped at 200) and fail fast at startup on a bad value.",
  );
  assistant({ calls: [read("src/index.ts")] });
  assistant({
    text: "I'll put environment parsing in `src/config.ts` so it can be tested without starting a server.",
    calls: [write("src/config.ts", CONFIG_V1)],
  });
  h.failedResponse("overloaded_error: Overloaded (529)");
  assistant({
    thinking:
      "The previous response failed with an overload error; continue where I was. Next: parsePagination needs a configurable default, createApp needs the option, index.ts must call loadConfig.",
    calls: [
      edit(
        "src/http/pagination.ts",
        `export function parsePagination(params: URLSearchParams): Page {
  const limit = readInteger(params, "limit") ?? DEFAULT_LIMIT;`,
        `export function parsePagination(params: URLSearchParams, defaultLimit = DEFAULT_LIMIT): Page {
  const limit = readInteger(params, "limit") ?? defaultLimit;`,
      ),
    ],
  });
  assistant({
    calls: [
      edit(
        "src/server.ts",
        `export function createApp(store = new TodoStore()) {
  return createServer(async (req, res) => {
    try {
      await route(store, req, res);`,
        `export interface AppOptions {
  /** Default \`limit\` of GET /todos. */
  pageSize?: number;
}

export function createApp(store = new TodoStore(), options: AppOptions = {}) {
  return createServer(async (req, res) => {
    try {
      await route(store, req, res, options);`,
      ),
    ],
  });
  assistant({
    calls: [
      edit(
        "src/server.ts",
        `async function route(store: TodoStore, req: IncomingMessage, res: ServerResponse) {`,
        `async function route(store: TodoStore, req: IncomingMessage, res: ServerResponse, options: AppOptions) {`,
      ),
    ],
  });
  assistant({
    calls: [
      edit(
        "src/server.ts",
        `      page = parsePagination(url.searchParams);`,
        `      page = parsePagination(url.searchParams, options.pageSize);`,
      ),
    ],
  });
  assistant({
    calls: [
      write(
        "src/index.ts",
        `import { loadConfig } from "./config.js";
import { createApp } from "./server.js";

let config;
try {
  config = loadConfig();
} catch (error) {
  console.error(\`todo-api: \${(error as Error).message}\`);
  process.exit(1);
}

createApp(undefined, { pageSize: config.pageSize }).listen(config.port, () => {
  console.log(\`todo-api listening on http://localhost:\${config.port} (page size \${config.pageSize})\`);
});
`,
      ),
    ],
  });
  assistant({ calls: [write("test/config.test.ts", CONFIG_TEST)] });
  assistant({
    calls: [
      bash(
        "npm test",
        `${vitestHeader}
 ✓ test/server.test.ts  (6 tests) 48ms
 ✓ test/pagination.test.ts  (8 tests) 60ms
 ❯ test/config.test.ts  (5 tests | 1 failed) 6ms
   ❯ test/config.test.ts > loadConfig > rejects a page size of 0
     → expected [Function] to throw an error

⎯⎯⎯⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯⎯⎯⎯

 FAIL  test/config.test.ts > loadConfig > rejects a page size of 0
AssertionError: expected [Function] to throw an error
 ❯ test/config.test.ts:13:56
     11|
     12|   it("rejects a page size of 0", () => {
     13|     expect(() => loadConfig({ TODO_PAGE_SIZE: "0" })).toThrow("TODO_PAGE_SIZE must be an integer between 1 and 200");
       |                                                        ^
     14|   });
     15|

⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯[1/1]⎯
${vitestFooter("1 failed | 2 passed (3)", "1 failed | 18 passed (19)", "09:44:10", "702ms (transform 101ms, setup 0ms, collect 188ms, tests 114ms, environment 0ms, prepare 151ms)")}`,
        1,
      ),
    ],
  });
  assistant({
    text: '`Number("0") || DEFAULT_LIMIT` turns 0 into 50, so the bad value slips through. Only an unset variable should mean "use the default":',
    calls: [
      edit(
        "src/config.ts",
        `  const pageSize = Number(env.TODO_PAGE_SIZE) || DEFAULT_LIMIT;
  if (!Number.isInteger(pageSize) || pageSize > MAX_LIMIT) {`,
        `  const raw = env.TODO_PAGE_SIZE;
  const pageSize = raw === undefined || raw.trim() === "" ? DEFAULT_LIMIT : Number(raw);
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > MAX_LIMIT) {`,
      ),
    ],
  });
  assistant({
    calls: [
      bash(
        "npm test && npx tsc --noEmit",
        `${vitestHeader}
 ✓ test/server.test.ts  (6 tests) 47ms
 ✓ test/pagination.test.ts  (8 tests) 59ms
 ✓ test/config.test.ts  (5 tests) 5ms
${vitestFooter("3 passed (3)", "19 passed (19)", "09:45:03", "664ms (transform 97ms, setup 0ms, collect 179ms, tests 111ms, environment 0ms, prepare 143ms)")}`,
      ),
    ],
  });
  assistant({
    calls: [
      bash(
        "TODO_PAGE_SIZE=0 timeout 5 npx tsx src/index.ts; echo exit=$?",
        `todo-api: TODO_PAGE_SIZE must be an integer between 1 and 200, got "0"
exit=1`,
      ),
    ],
  });
  assistant({
    text: `\`TODO_PAGE_SIZE\` now sets the default page size; 19 tests pass and the type check is clean.

- \`src/config.ts\` (new): \`loadConfig(env)\` reads \`PORT\` and \`TODO_PAGE_SIZE\` (1–200, default 50) and throws a readable error otherwise
- \`src/index.ts\`: exits with status 1 and one line on stderr for a bad value (checked: \`TODO_PAGE_SIZE=0\` → exit 1)
- \`src/server.ts\`: \`createApp(store, { pageSize })\`
- \`src/http/pagination.ts\`: \`parsePagination(params, defaultLimit)\`
- \`test/config.test.ts\` (new): 5 tests

An explicit \`?limit=\` still wins over the configured default.`,
  });

  // ---- Task 3: documentation and commit ------------------------------------------------------------
  user("Great. Document the pagination and TODO_PAGE_SIZE in the README, then commit everything.");
  assistant({ calls: [read("README.md")] });
  assistant({
    calls: [
      edit(
        "README.md",
        "| GET    | /todos       |                       | 200, array of todos     |",
        "| GET    | /todos       | `?limit=&offset=`     | 200, array of todos     |",
      ),
    ],
  });
  assistant({
    calls: [
      edit(
        "README.md",
        "## Development",
        `## Pagination

\`GET /todos\` returns one page of todos in id order; the body is still a plain array.

- \`limit\`: page size, 1–200 (default 50, or \`TODO_PAGE_SIZE\`)
- \`offset\`: how many todos to skip (default 0)
- \`X-Total-Count\` holds the total number of todos
- \`Link: </todos?limit=50&offset=50>; rel="next"\` is set while more todos remain
- Invalid values give \`400 {"error":"invalid_query","message":"…"}\`

## Configuration

| variable         | default | meaning                                    |
| ---------------- | ------- | ------------------------------------------ |
| \`PORT\`           | 3000    | port to listen on                          |
| \`TODO_PAGE_SIZE\` | 50      | default page size of \`GET /todos\` (1–200)  |

The server refuses to start on an invalid value.

## Development`,
      ),
    ],
  });
  assistant({
    calls: [
      bash(
        'git add -A && git commit -qm "Make the page size configurable; document pagination" && git log --oneline -3 && git status --short',
        `e81d3b7 Make the page size configurable; document pagination
a3f9c12 Add offset pagination to GET /todos
5b0e7d4 Trim titles on update`,
        0,
        h.commit,
      ),
    ],
  });
  assistant({
    text: `Done: the README documents pagination (query parameters, headers, errors) and the configuration table, and everything is committed as \`e81d3b7\` on top of \`a3f9c12\`. The working tree is clean.`,
  });

  // ---- Task 4: the digest job follows the pages -----------------------------------------------------
  user(
    "Oh no, the weekly digest (scripts/digest.ts) calls GET /todos and would now only see the first 50 todos. Make it follow the pages, and add a test that would have caught this.",
  );
  assistant({
    calls: [
      bash(
        'grep -rn "/todos" scripts src --include=*.ts',
        `scripts/digest.ts:19:  const res = await fetch(\`\${apiUrl}/todos\`);
scripts/digest.ts:20:  if (!res.ok) throw new Error(\`GET /todos failed with \${res.status}\`);
src/server.ts:29:  const match = /^\\/todos(?:\\/(\\d+))?$/.exec(url.pathname);
src/server.ts:49:      res.setHeader("link", \`</todos?limit=\${page.limit}&offset=\${next}>; rel="next"\`);`,
      ),
    ],
  });
  assistant({ calls: [read("scripts/digest.ts")] });
  assistant({
    thinking:
      "fetchTodos does a single GET. It should loop: request with limit=200 (the maximum, fewest round trips), append the page, follow the rel=next Link until there is none. Parsing the Link header deserves its own small function so it can be tested directly.",
    text: "`fetchTodos` makes a single request. I'll make it follow the `rel=\"next\"` links with the largest page size:",
    calls: [
      edit(
        "scripts/digest.ts",
        `export async function fetchTodos(apiUrl: string): Promise<Todo[]> {
  const res = await fetch(\`\${apiUrl}/todos\`);
  if (!res.ok) throw new Error(\`GET /todos failed with \${res.status}\`);
  return (await res.json()) as Todo[];
}`,
        FETCH_ALL,
      ),
    ],
  });
  assistant({ calls: [write("test/digest.test.ts", DIGEST_TEST)] });
  assistant({
    calls: [
      bash(
        "npm test",
        `${vitestHeader}
 ✓ test/server.test.ts  (6 tests) 49ms
 ✓ test/pagination.test.ts  (8 tests) 62ms
 ✓ test/config.test.ts  (5 tests) 5ms
 ❯ test/digest.test.ts  (3 tests | 1 failed) 41ms
   ❯ test/digest.test.ts > digest > fetches every todo across pages
     → Invalid URL

⎯⎯⎯⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯⎯⎯⎯

 FAIL  test/digest.test.ts > digest > fetches every todo across pages
TypeError: Invalid URL
 ❯ fetchTodos scripts/digest.ts:28:18
     26|     todos.push(...((await res.json()) as Todo[]));
     27|     const next = parseNextLink(res.headers.get("link"));
     28|     url = next ? new URL(next).toString() : undefined;
       |                  ^
     29|   }
     30|   return todos;
 ❯ test/digest.test.ts:26:19

{
  code: 'ERR_INVALID_URL',
  input: '/todos?limit=200&offset=200'
}

⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯[1/1]⎯
${vitestFooter("1 failed | 3 passed (4)", "1 failed | 21 passed (22)", "10:02:37", "741ms (transform 118ms, setup 0ms, collect 230ms, tests 157ms, environment 0ms, prepare 160ms)")}`,
        1,
      ),
    ],
  });
  assistant({
    text: "The server's `Link` targets are relative (`/todos?limit=200&offset=200`), so they must be resolved against the API URL:",
    calls: [
      edit(
        "scripts/digest.ts",
        "    url = next ? new URL(next).toString() : undefined;",
        "    url = next ? new URL(next, apiUrl).toString() : undefined;",
      ),
    ],
  });
  assistant({
    calls: [
      bash(
        "npm test && npx tsc --noEmit",
        `${vitestHeader}
 ✓ test/server.test.ts  (6 tests) 48ms
 ✓ test/pagination.test.ts  (8 tests) 60ms
 ✓ test/config.test.ts  (5 tests) 5ms
 ✓ test/digest.test.ts  (3 tests) 88ms
${vitestFooter("4 passed (4)", "22 passed (22)", "10:03:12", "803ms (transform 117ms, setup 0ms, collect 228ms, tests 201ms, environment 0ms, prepare 158ms)")}`,
      ),
    ],
  });
  assistant({
    calls: [
      bash(
        'git add -A && git commit -qm "digest: follow the pages of GET /todos" && git log --oneline -4',
        `0c5a9e2 digest: follow the pages of GET /todos
e81d3b7 Make the page size configurable; document pagination
a3f9c12 Add offset pagination to GET /todos
5b0e7d4 Trim titles on update`,
        0,
        h.commit,
      ),
    ],
  });
  assistant({
    text: `Fixed and committed as \`0c5a9e2\`.

- \`fetchTodos\` now requests \`limit=200\` and follows \`rel="next"\` links until the last page, resolving the relative link targets against the API URL (the first version forgot that, and the new test caught it)
- \`parseNextLink(header)\` is exported and tested on its own
- \`test/digest.test.ts\` (new): 450 todos across 3 pages, Link parsing, digest counts

22 tests pass and the type check is clean. Worth knowing: any other consumer of \`GET /todos\` that expects the full list needs the same change; within this repository the digest was the only one.`,
  });
}
