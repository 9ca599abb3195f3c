import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { startWireServer, type TestLlmServer } from "./test-llm-server";
import { errorReply, textReply, toolCallReply } from "./wire-replies";

let server: TestLlmServer;
beforeEach(async () => {
  server = await startWireServer({ apiKey: "sk-server-key-000" });
});
afterEach(async () => {
  await server.close();
});

function post(path: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: "Bearer sk-server-key-000", ...headers },
    body: JSON.stringify(body),
  });
}

describe("test LLM server", () => {
  it("answers non-streaming requests with each API's JSON body", async () => {
    server.enqueue(textReply("hi"), toolCallReply("read", { path: "a" }), textReply("resp"));
    const anthropic = await (
      await post("/v1/messages", { model: "claude-x", max_tokens: 5, messages: [] })
    ).json();
    expect(anthropic).toMatchObject({
      type: "message",
      model: "claude-x",
      content: [{ type: "text", text: "hi" }],
      stop_reason: "end_turn",
    });
    const chat = await (await post("/v1/chat/completions", { model: "gpt-x", messages: [] })).json();
    expect(chat).toMatchObject({
      object: "chat.completion",
      choices: [
        {
          finish_reason: "tool_calls",
          message: { tool_calls: [{ function: { name: "read", arguments: '{"path":"a"}' } }] },
        },
      ],
    });
    const responses = await (await post("/responses", { model: "gpt-y", input: [] })).json();
    expect(responses).toMatchObject({
      object: "response",
      status: "completed",
      output: [{ type: "message" }],
    });
  });

  it("records requests with credentials redacted", async () => {
    server.enqueue(textReply("x"));
    await post(
      "/v1/messages",
      { model: "m", stream: false },
      { "x-api-key": "sk-server-key-000", "x-trace": "t1" },
    );
    expect(server.requests[0]).toMatchObject({
      route: "anthropic-messages",
      method: "POST",
      path: "/v1/messages",
      body: { model: "m", stream: false },
      authorized: true,
    });
    expect(server.requests[0]?.headers).toMatchObject({
      authorization: "Bearer [redacted]",
      "x-api-key": "[redacted]",
      "x-trace": "t1",
    });
    expect(JSON.stringify(server.requests)).not.toContain("sk-server-key-000");
  });

  it("rejects a wrong key with a 401 without consuming the script", async () => {
    server.enqueue(textReply("kept"));
    const response = await post("/v1/chat/completions", {}, { authorization: "Bearer sk-wrong-key-123456" });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: { code: "invalid_api_key" } });
    expect(server.pending).toBe(1);
  });

  it("serves route queues first, then the shared script; 400 when empty; 404 for unknown paths", async () => {
    server.enqueue(textReply("shared"));
    server.enqueueFor("openai-chat", errorReply(503, "down"));
    expect((await post("/v1/chat/completions", {})).status).toBe(503);
    expect((await post("/v1/chat/completions", {})).status).toBe(200);
    const empty = await post("/v1/messages", {});
    expect(empty.status).toBe(400);
    expect(await empty.text()).toContain("no scripted reply left");
    expect((await post("/v1/embeddings", {})).status).toBe(404);
  });

  it("streams SSE with event names for Anthropic and [DONE] for Chat", async () => {
    server.enqueue(textReply("hello", { chunkSize: 2 }), textReply("hello"));
    const anthropic = await (await post("/v1/messages", { stream: true })).text();
    expect(anthropic).toMatch(/^event: message_start\ndata: /);
    expect(anthropic.match(/event: content_block_delta/g)).toHaveLength(3);
    const chat = await (
      await post("/v1/chat/completions", { stream: true, stream_options: { include_usage: true } })
    ).text();
    expect(chat.trim().endsWith("data: [DONE]")).toBe(true);
    expect(chat).toContain('"usage":{"prompt_tokens":10');
  });

  it("stops a slow reply when the client goes away", async () => {
    // One event per minute: only an honoured disconnect lets the reply end during the test.
    server.enqueue(textReply("slow", { chunkSize: 1, eventDelayMs: 60_000 }));
    const controller = new AbortController();
    const response = await fetch(`${server.url}/v1/messages`, {
      method: "POST",
      headers: { authorization: "Bearer sk-server-key-000" },
      body: JSON.stringify({ stream: true }),
      signal: controller.signal,
    });
    expect(response.status).toBe(200);
    controller.abort();
    await vi.waitFor(() => expect(server.requests[0]?.outcome).toBe("client-gone"));
  });

  it("records a cut stream", async () => {
    server.enqueue(textReply("cut me", { cutAfterEvents: 2 }));
    await expect(
      post("/v1/messages", { stream: true }).then((response) => response.text()),
    ).rejects.toThrow();
    expect(server.requests[0]?.outcome).toBe("cut");
  });
});
