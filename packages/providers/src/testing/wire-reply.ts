/** Token counts a scripted reply reports (in Arbor's sense: `input` excludes cached tokens). */
export interface WireUsage {
  input?: number;
  output?: number;
  cacheRead?: number;
  cacheWrite?: number;
  /** Part of `output` spent on reasoning. */
  reasoning?: number;
}

/** One content block of a scripted reply, rendered in the wire format of the route it is served on. */
export type WireBlock =
  | { type: "text"; text: string }
  /** Readable thinking; `signature` is Anthropic's signature or the Responses encrypted content. */
  | { type: "thinking"; thinking: string; signature?: string }
  /** Anthropic `redacted_thinking` (on OpenAI routes: a reasoning item with encrypted content only). */
  | { type: "redacted-thinking"; data: string }
  /** `arguments` as an object is serialised; as a string it is streamed verbatim (may be invalid JSON). */
  | { type: "tool-call"; id?: string; name: string; arguments: Record<string, unknown> | string };

/** A successful (possibly faulty in transport) scripted response. */
export interface WireResponse {
  kind: "response";
  content: WireBlock[];
  /** Default `"toolUse"` when the content has a tool call, else `"stop"`. */
  stopReason?: "stop" | "length" | "toolUse";
  /** Raw provider stop reason, overriding `stopReason` (`"refusal"`, `"content_filter"`). */
  rawStopReason?: string;
  /** Default `{ input: 10, output: 5 }`. */
  usage?: WireUsage;
  /** Response model name; default: the requested model. */
  model?: string;
  /** Characters per delta when splitting text, thinking and tool arguments. Default 8. */
  chunkSize?: number;
  /** Slow reply: wait this long before each SSE event. */
  eventDelayMs?: number;
  /** Wait this long before sending the response headers. */
  initialDelayMs?: number;
  /** Stream cut: destroy the socket after this many SSE events have been written. */
  cutAfterEvents?: number;
  /**
   * Error inside the stream: after this many events, send the route's error event (Anthropic
   * `event: error` with `overloaded_error`, OpenAI Chat `data: {"error": ...}`, Responses
   * `response.failed`) and end the stream.
   */
  errorAfterEvents?: number;
  /** Message of that error event (default: the provider's overloaded / server error wording). */
  streamErrorMessage?: string;
  /** Extra response headers. */
  headers?: Record<string, string>;
}

/** A scripted HTTP error response. */
export interface WireError {
  kind: "error";
  status: number;
  /**
   * JSON-serialised unless a string. A function receives the route the request came to, so one
   * script entry can answer in the envelope of whichever API is called.
   */
  body: unknown | ((route: WireRoute) => unknown);
  headers?: Record<string, string>;
}

/**
 * An overflow error in the real format of a provider or server. `"native"` picks the format of the
 * route the request came to (Anthropic, OpenAI Chat or OpenAI Responses).
 */
export type OverflowFlavor =
  | "native"
  | "anthropic"
  | "anthropic-413"
  | "openai-chat"
  | "openai-responses"
  | "llama.cpp"
  | "vllm"
  | "ollama"
  | "lm-studio";

/**
 * A stream sent verbatim, for servers whose output the renderers do not produce (quirky
 * OpenAI-compatible servers, malformed streams). `data` is JSON-serialised unless a string.
 */
export interface WireRawStream {
  kind: "raw-stream";
  events: Array<{ event?: string; data: unknown }>;
  eventDelayMs?: number;
  cutAfterEvents?: number;
}

/**
 * A generated reply: called with the parsed request body and the route, returns the reply to
 * serve. Lets a script react to what the client sent.
 */
export type WireReplyFunction = (request: { route: WireRoute; body: unknown }) => WireReplySpec;

/** A reply that is data, not a function. */
export type WireReplySpec = WireResponse | WireError | WireRawStream;

/** One entry of the test server's script. */
export type WireReply = WireReplySpec | WireReplyFunction;

/** The wire APIs the test server speaks. */
export type WireRoute = "anthropic-messages" | "openai-chat" | "openai-responses";
