import type { WireBlock, WireResponse, WireRoute, WireUsage } from "./wire-reply";

/** One server-sent event: an optional `event:` name and its `data:` line. */
export interface SseEvent {
  event?: string;
  data: string;
}

/** What a renderer turns a scripted response into: the SSE stream and the equivalent JSON body. */
export interface RenderedReply {
  events: SseEvent[];
  json: unknown;
}

/** Splits `text` into pieces of `size` characters (at least one piece, possibly empty). */
export function splitIntoChunks(text: string, size: number): string[] {
  const step = Math.max(1, Math.floor(size));
  const chunks: string[] = [];
  for (let start = 0; start < text.length; start += step) chunks.push(text.slice(start, start + step));
  return chunks.length > 0 ? chunks : [""];
}

/** The chunk size of a reply (default 8). */
export function chunkSizeOf(reply: WireResponse): number {
  return reply.chunkSize ?? 8;
}

/** Usage with defaults filled in (10 input, 5 output). */
export function usageOf(reply: WireResponse): Required<WireUsage> {
  return { input: 10, output: 5, cacheRead: 0, cacheWrite: 0, reasoning: 0, ...reply.usage };
}

/** The neutral stop reason of a reply: explicit, else `toolUse` with tool calls, else `stop`. */
export function stopReasonOf(reply: WireResponse): "stop" | "length" | "toolUse" {
  return reply.stopReason ?? (reply.content.some((block) => block.type === "tool-call") ? "toolUse" : "stop");
}

/** Tool call arguments as the text to stream. */
export function argumentsText(block: Extract<WireBlock, { type: "tool-call" }>): string {
  return typeof block.arguments === "string" ? block.arguments : JSON.stringify(block.arguments);
}

/** Arguments as an object for JSON bodies (unparsable text becomes `{}`). */
export function argumentsObject(block: Extract<WireBlock, { type: "tool-call" }>): Record<string, unknown> {
  if (typeof block.arguments !== "string") return block.arguments;
  try {
    return JSON.parse(block.arguments) as Record<string, unknown>;
  } catch {
    return {};
  }
}

/** Serialises an event with a JSON payload. */
export function sse(data: unknown, event?: string): SseEvent {
  return event === undefined ? { data: JSON.stringify(data) } : { event, data: JSON.stringify(data) };
}

/** The error event a route sends inside a stream (see `WireResponse.errorAfterEvents`). */
export function streamErrorEvent(route: WireRoute, message: string | undefined): SseEvent {
  if (route === "anthropic-messages") {
    return sse(
      { type: "error", error: { type: "overloaded_error", message: message ?? "Overloaded" } },
      "error",
    );
  }
  const text = message ?? "The server had an error while processing your request. Sorry about that!";
  if (route === "openai-chat")
    return sse({ error: { message: text, type: "server_error", param: null, code: null } });
  return sse(
    {
      type: "response.failed",
      sequence_number: 9999,
      response: {
        object: "response",
        status: "failed",
        error: { code: "server_error", message: text },
        output: [],
      },
    },
    "response.failed",
  );
}
