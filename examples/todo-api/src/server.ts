import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { TodoStore } from "./todos/store.js";
import type { NewTodo } from "./todos/types.js";

export function createApp(store = new TodoStore()) {
  return createServer(async (req, res) => {
    try {
      await route(store, req, res);
    } catch (error) {
      sendJson(res, 500, { error: "internal_error", message: (error as Error).message });
    }
  });
}

async function route(store: TodoStore, req: IncomingMessage, res: ServerResponse) {
  const url = new URL(req.url ?? "/", "http://localhost");
  const match = /^\/todos(?:\/(\d+))?$/.exec(url.pathname);
  if (!match) return sendJson(res, 404, { error: "not_found" });
  const id = match[1] ? Number(match[1]) : undefined;

  if (req.method === "GET" && id === undefined) {
    return sendJson(res, 200, store.list());
  }
  if (req.method === "GET" && id !== undefined) {
    const todo = store.get(id);
    return todo ? sendJson(res, 200, todo) : sendJson(res, 404, { error: "not_found" });
  }
  if (req.method === "POST" && id === undefined) {
    const body = (await readJson(req)) as NewTodo;
    if (typeof body?.title !== "string" || body.title.trim() === "") {
      return sendJson(res, 400, { error: "invalid_body", message: "title is required" });
    }
    return sendJson(res, 201, store.create(body));
  }
  if (req.method === "PATCH" && id !== undefined) {
    const updated = store.update(id, (await readJson(req)) as Partial<NewTodo>);
    return updated ? sendJson(res, 200, updated) : sendJson(res, 404, { error: "not_found" });
  }
  if (req.method === "DELETE" && id !== undefined) {
    return store.delete(id) ? sendEmpty(res, 204) : sendJson(res, 404, { error: "not_found" });
  }
  return sendJson(res, 405, { error: "method_not_allowed" });
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  return text ? JSON.parse(text) : undefined;
}

function sendJson(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

function sendEmpty(res: ServerResponse, status: number) {
  res.writeHead(status);
  res.end();
}
