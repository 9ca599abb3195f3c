/** What can be read out of a provider's error body, whatever its envelope. */
export interface ErrorDetails {
  /** Human-readable text, when the body had one. */
  message: string | undefined;
  /** The provider's error type (`invalid_request_error`, `exceed_context_size_error`). */
  type: string | undefined;
  /** The provider's error code (`context_length_exceeded`, `insufficient_quota`). */
  code: string | undefined;
}

const MAX_MESSAGE_LENGTH = 2000;

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function asText(value: unknown): string | undefined {
  if (typeof value === "string" && value.trim() !== "") return value;
  if (typeof value === "number") return String(value);
  return undefined;
}

function parseJsonText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * Reads message, type and code from an error body in any of the envelopes seen in practice:
 * Anthropic `{type:"error", error:{type, message}}`, OpenAI `{error:{message, type, code}}`, the
 * inner object alone, vLLM's `{object:"error", message, type, code}`, LM Studio / Ollama
 * `{error:"text"}`, FastAPI `{detail:"text"}`, and plain text (JSON text is parsed first).
 * Pure; never throws; long texts are cut to 2000 characters.
 */
export function extractErrorDetails(body: unknown): ErrorDetails {
  const parsed = typeof body === "string" ? (parseJsonText(body) ?? body) : body;
  if (typeof parsed === "string") {
    const text = parsed.trim();
    return {
      message: text === "" ? undefined : text.slice(0, MAX_MESSAGE_LENGTH),
      type: undefined,
      code: undefined,
    };
  }
  const outer = asRecord(parsed);
  if (!outer) return { message: undefined, type: undefined, code: undefined };
  const inner = asRecord(outer.error);
  const source = inner ?? outer;
  const message =
    asText(source.message) ??
    (inner ? undefined : asText(outer.error)) ??
    asText(outer.detail) ??
    asText(outer.message);
  const type = asText(source.type) ?? (inner ? asText(outer.type) : undefined);
  return {
    message: message?.slice(0, MAX_MESSAGE_LENGTH),
    type: type === "error" ? undefined : type,
    code: asText(source.code),
  };
}
