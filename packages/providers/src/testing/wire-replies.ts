import { overflowErrorBody } from "./overflow-error-bodies";
import type {
  OverflowFlavor,
  WireBlock,
  WireError,
  WireRawStream,
  WireResponse,
  WireRoute,
} from "./wire-reply";

type ResponseOptions = Omit<WireResponse, "kind" | "content">;

/** A response with the given content blocks. */
export function contentReply(content: WireBlock[], options: ResponseOptions = {}): WireResponse {
  return { kind: "response", content, ...options };
}

/** A response with one text block. */
export function textReply(text: string, options: ResponseOptions = {}): WireResponse {
  return contentReply([{ type: "text", text }], options);
}

/** A response that calls one tool (optionally after some text); stop reason `toolUse`. */
export function toolCallReply(
  name: string,
  args: Record<string, unknown> | string,
  options: ResponseOptions & { id?: string; text?: string } = {},
): WireResponse {
  const { id, text, ...rest } = options;
  const blocks: WireBlock[] = text ? [{ type: "text", text }] : [];
  blocks.push({ type: "tool-call", name, arguments: args, ...(id ? { id } : {}) });
  return contentReply(blocks, rest);
}

/** Any HTTP error with a literal body. */
export function errorReply(status: number, body: unknown, headers?: Record<string, string>): WireError {
  return { kind: "error", status, body, ...(headers ? { headers } : {}) };
}

function byRoute(anthropic: unknown, openai: unknown): (route: WireRoute) => unknown {
  return (route) => (route === "anthropic-messages" ? anthropic : openai);
}

/**
 * HTTP 429 in the envelope of the route (Anthropic `rate_limit_error`, OpenAI
 * `rate_limit_exceeded`), with `retry-after` (seconds, fractions allowed) and / or
 * `retry-after-ms` headers when given.
 */
export function rateLimitReply(
  options: { retryAfterSeconds?: number; retryAfterMs?: number } = {},
): WireError {
  const headers: Record<string, string> = {};
  if (options.retryAfterSeconds !== undefined) headers["retry-after"] = String(options.retryAfterSeconds);
  if (options.retryAfterMs !== undefined) headers["retry-after-ms"] = String(options.retryAfterMs);
  const anthropic = {
    type: "error",
    error: {
      type: "rate_limit_error",
      message:
        "This request would exceed the rate limit for your organization of 50,000 input tokens per minute.",
    },
  };
  const openai = {
    error: {
      message:
        "Rate limit reached for requests per min (RPM): Limit 500, Used 500, Requested 1. Please try again in 1s.",
      type: "requests",
      param: null,
      code: "rate_limit_exceeded",
    },
  };
  return errorReply(429, byRoute(anthropic, openai), headers);
}

/** A 5xx in the envelope of the route (529 is Anthropic's `overloaded_error`). */
export function serverErrorReply(status = 500): WireError {
  const anthropic = {
    type: "error",
    error:
      status === 529
        ? { type: "overloaded_error", message: "Overloaded" }
        : { type: "api_error", message: "Internal server error" },
  };
  const openai = {
    error: {
      message: "The server had an error while processing your request. Sorry about that!",
      type: "server_error",
      param: null,
      code: null,
    },
  };
  return errorReply(status, byRoute(anthropic, openai));
}

/** A context overflow error in the real format of `flavor` (default: the route's own format). */
export function overflowReply(flavor: OverflowFlavor = "native"): WireError {
  const status = flavor === "native" ? 400 : overflowErrorBody(flavor, "anthropic-messages").status;
  return errorReply(status, (route: WireRoute) => overflowErrorBody(flavor, route).body);
}

/** A stream of literal SSE events (`data` JSON-serialised unless a string), served as is. */
export function rawStreamReply(
  events: WireRawStream["events"],
  options: Omit<WireRawStream, "kind" | "events"> = {},
): WireRawStream {
  return { kind: "raw-stream", events, ...options };
}
