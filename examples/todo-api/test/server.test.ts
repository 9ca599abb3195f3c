import type { AddressInfo } from "node:net";
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
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterEach(async () => {
  await new Promise((resolve) => server.close(resolve));
});

async function post(title: string) {
  return fetch(`${base}/todos`, { method: "POST", body: JSON.stringify({ title }) });
}

describe("todo api", () => {
  it("creates a todo", async () => {
    const res = await post("  buy milk ");
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({
      id: 1,
      title: "buy milk",
      done: false,
      createdAt: "2024-01-01T00:00:00.000Z",
    });
  });

  it("lists todos in id order", async () => {
    await post("a");
    await post("b");
    const res = await fetch(`${base}/todos`);
    expect((await res.json()).map((todo: { title: string }) => todo.title)).toEqual(["a", "b"]);
  });

  it("returns 404 for an unknown todo", async () => {
    const res = await fetch(`${base}/todos/42`);
    expect(res.status).toBe(404);
  });

  it("rejects an empty title", async () => {
    const res = await post("   ");
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: "invalid_body" });
  });

  it("updates a todo", async () => {
    await post("a");
    const res = await fetch(`${base}/todos/1`, { method: "PATCH", body: JSON.stringify({ done: true }) });
    expect(await res.json()).toMatchObject({ id: 1, done: true });
  });

  it("deletes a todo", async () => {
    await post("a");
    const res = await fetch(`${base}/todos/1`, { method: "DELETE" });
    expect(res.status).toBe(204);
    expect(store.size).toBe(0);
  });
});
