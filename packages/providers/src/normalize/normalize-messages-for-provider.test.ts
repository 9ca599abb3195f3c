import { describe, expect, it } from "vitest";
import { createEmptyUsage } from "../create-empty-usage";
import type { AssistantMessage, Message, ToolResultMessage, UserMessage } from "../message";
import { defineModel } from "../model/define-model";
import { getModel } from "../model/model-catalog";
import { MISSING_TOOL_RESULT_TEXT, normalizeMessagesForProvider } from "./normalize-messages-for-provider";
import { IMAGE_OMITTED_TEXT } from "./replace-unsupported-images";

const claude = getModel("anthropic", "claude-haiku-4-5");
const gpt = { ...getModel("openai", "gpt-4.1"), api: "openai-chat" as const };

function user(text: string, timestamp = 1): UserMessage {
  return { role: "user", content: text, timestamp };
}

function assistant(
  content: AssistantMessage["content"],
  fields: Partial<AssistantMessage> = {},
): AssistantMessage {
  return {
    role: "assistant",
    content,
    api: "anthropic-messages",
    provider: "anthropic",
    model: "claude-haiku-4-5",
    usage: createEmptyUsage(),
    stopReason: content.some((block) => block.type === "toolCall") ? "toolUse" : "stop",
    timestamp: 10,
    ...fields,
  };
}

function result(toolCallId: string, text = "ok"): ToolResultMessage {
  return {
    role: "toolResult",
    toolCallId,
    toolName: "read",
    content: [{ type: "text", text }],
    isError: false,
    timestamp: 11,
  };
}

const call = (id: string) => ({ type: "toolCall" as const, id, name: "read", arguments: { path: id } });

describe("normalizeMessagesForProvider", () => {
  it("leaves errored and aborted assistant messages out, with their dangling results", () => {
    const messages: Message[] = [
      user("a"),
      assistant([{ type: "text", text: "partial" }, call("t1")], {
        stopReason: "error",
        errorMessage: "boom",
      }),
      result("t1"),
      assistant([{ type: "text", text: "half" }], { stopReason: "aborted" }),
      user("b"),
    ];
    expect(normalizeMessagesForProvider(messages, claude)).toEqual([user("a"), user("b")]);
  });

  it("gives every tool call a result, synthesising missing ones in call order", () => {
    const messages: Message[] = [
      user("a"),
      assistant([call("t1"), call("t2"), call("t3")]),
      result("t2"),
      user("next"),
    ];
    const normalized = normalizeMessagesForProvider(messages, claude);
    expect(
      normalized.map((message) => [message.role, message.role === "toolResult" ? message.toolCallId : ""]),
    ).toEqual([
      ["user", ""],
      ["assistant", ""],
      ["toolResult", "t1"],
      ["toolResult", "t2"],
      ["toolResult", "t3"],
      ["user", ""],
    ]);
    expect(normalized[2]).toEqual({
      role: "toolResult",
      toolCallId: "t1",
      toolName: "read",
      content: [{ type: "text", text: MISSING_TOOL_RESULT_TEXT }],
      isError: true,
      timestamp: 10,
    });
    expect(normalized[3]).toBe(messages[2]);
  });

  it("moves a user message that sits between a call and its result after the result", () => {
    const messages: Message[] = [assistant([call("t1")]), user("steer"), result("t1")];
    const normalized = normalizeMessagesForProvider(messages, claude);
    expect(normalized.map((message) => message.role)).toEqual(["assistant", "toolResult", "user"]);
    expect(normalized[1]).toBe(messages[2]);
  });

  it("drops orphan and duplicate results", () => {
    const messages: Message[] = [
      result("ghost"),
      user("a"),
      assistant([call("t1")]),
      result("t1", "first"),
      result("t1", "again"),
    ];
    const normalized = normalizeMessagesForProvider(messages, claude);
    expect(normalized).toHaveLength(3);
    expect(normalized[2]).toMatchObject({ toolCallId: "t1", content: [{ text: "first" }] });
  });

  it("strips thinking and signatures from another model's messages and keeps them for the same model", () => {
    const fromClaude = assistant([
      { type: "thinking", thinking: "secret plan", thinkingSignature: "sig" },
      { type: "text", text: "hi", textSignature: "msg_1" },
      { ...call("t1"), thoughtSignature: "ts" },
    ]);
    const messages: Message[] = [user("a"), fromClaude, result("t1")];
    const forGpt = normalizeMessagesForProvider(messages, gpt)[1] as AssistantMessage;
    expect(forGpt.content).toEqual([{ type: "text", text: "hi" }, call("t1")]);
    const forClaude = normalizeMessagesForProvider(messages, claude)[1];
    expect(forClaude).toEqual(fromClaude);
  });

  it("drops empty unsigned thinking and assistant messages left empty", () => {
    const messages: Message[] = [
      user("a"),
      assistant([{ type: "thinking", thinking: "  " }]),
      assistant([
        { type: "thinking", thinking: "", thinkingSignature: "keep-me" },
        { type: "text", text: "x" },
      ]),
      assistant([{ type: "thinking", thinking: "only thoughts" }], { model: "other-model" }),
    ];
    const normalized = normalizeMessagesForProvider(messages, claude);
    expect(normalized).toHaveLength(2);
    expect((normalized[1] as AssistantMessage).content[0]).toEqual({
      type: "thinking",
      thinking: "",
      thinkingSignature: "keep-me",
    });
  });

  it("makes foreign tool call ids valid and unique, and remaps their results", () => {
    const foreign = { provider: "openai", api: "openai-responses", model: "gpt-5" };
    const messages: Message[] = [
      assistant([call("call_1|fc_abc.def")], foreign),
      result("call_1|fc_abc.def"),
      assistant([call("call_0")], foreign),
      result("call_0"),
      assistant([call("call_0")], foreign),
      result("call_0"),
    ];
    const normalized = normalizeMessagesForProvider(messages, claude);
    const ids = normalized.map((message) =>
      message.role === "toolResult"
        ? message.toolCallId
        : (message as AssistantMessage).content.map((block) => block.type === "toolCall" && block.id)[0],
    );
    expect(ids).toEqual([
      "call_1_fc_abc_def",
      "call_1_fc_abc_def",
      "call_0",
      "call_0",
      "call_0_2",
      "call_0_2",
    ]);
  });

  it("cuts ids to 40 characters for Chat Completions", () => {
    const long = `call_${"x".repeat(60)}`;
    const normalized = normalizeMessagesForProvider([assistant([call(long)]), result(long)], gpt);
    const id = (normalized[1] as ToolResultMessage).toolCallId;
    expect(id).toHaveLength(40);
    expect((normalized[0] as AssistantMessage).content[0]).toMatchObject({ id });
  });

  it("replaces images for a text-only model", () => {
    const textOnly = defineModel({ provider: "ollama", id: "qwen", contextWindow: 8192 });
    const image = { type: "image" as const, data: "AA", mimeType: "image/png" };
    const messages: Message[] = [
      { role: "user", content: [{ type: "text", text: "see" }, image, image], timestamp: 1 },
      assistant([call("t1")], { provider: "ollama", api: "openai-chat", model: "qwen" }),
      { ...result("t1"), content: [image] },
    ];
    const normalized = normalizeMessagesForProvider(messages, textOnly);
    expect((normalized[0] as UserMessage).content).toEqual([
      { type: "text", text: "see" },
      { type: "text", text: IMAGE_OMITTED_TEXT },
    ]);
    expect((normalized[2] as ToolResultMessage).content).toEqual([
      { type: "text", text: IMAGE_OMITTED_TEXT },
    ]);
    expect(normalizeMessagesForProvider(messages, claude)[0]).toBe(messages[0]);
  });

  it("shares an assistant message it keeps as it is, and copies one it changes", () => {
    const kept = assistant([
      { type: "thinking", thinking: "x", thinkingSignature: "s" },
      { type: "text", text: "reading", textSignature: "t" },
      call("t1"),
    ]);
    const fromOther = assistant([{ type: "text", text: "hi", textSignature: "t" }], {
      provider: "openai",
      api: "openai-responses",
      model: "gpt-5",
    });
    const badId = assistant([call("a|b")]);
    const messages: Message[] = [user("u"), kept, result("t1"), fromOther, user("v"), badId, result("a|b")];
    const before = structuredClone(messages);
    const normalized = normalizeMessagesForProvider(messages, claude);
    expect(normalized[1]).toBe(kept);
    expect(normalized[3]).not.toBe(fromOther);
    expect(normalized[3]).toEqual({ ...fromOther, content: [{ type: "text", text: "hi" }] });
    expect(normalized[5]).not.toBe(badId);
    expect((normalized[5] as AssistantMessage).content).toEqual([{ ...call("a|b"), id: "a_b" }]);
    expect((normalized[6] as ToolResultMessage).toolCallId).toBe("a_b");
    // A tool call that carries a thought signature from another model is copied without it.
    const signed = assistant([{ ...call("t2"), thoughtSignature: "sig" }], { model: "claude-opus-4-5" });
    const [, copy] = normalizeMessagesForProvider([user("w"), signed, result("t2")], claude);
    expect(copy).not.toBe(signed);
    expect((copy as AssistantMessage).content).toEqual([call("t2")]);
    expect(messages).toEqual(before);
  });

  it("does not mutate its input", () => {
    const messages: Message[] = [
      assistant([{ type: "thinking", thinking: "x", thinkingSignature: "s" }, call("a|b")]),
      user("u"),
    ];
    const before = structuredClone(messages);
    normalizeMessagesForProvider(messages, gpt);
    expect(messages).toEqual(before);
  });
});

describe("normalizeMessagesForProvider: untyped input", () => {
  it("treats null content as empty", () => {
    const messages = [
      { role: "user", content: null, timestamp: 1 },
      assistant([call("t1")]),
      { ...result("t1"), content: null },
    ] as unknown as Message[];
    const normalized = normalizeMessagesForProvider(messages, claude);
    expect(normalized[0]).toMatchObject({ role: "user", content: "" });
    expect(normalized[2]).toMatchObject({ role: "toolResult", content: [] });
  });
});
