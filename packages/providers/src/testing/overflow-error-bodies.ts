import type { OverflowFlavor, WireRoute } from "./wire-reply";

/** Status and body of one overflow error. */
export interface OverflowErrorBody {
  status: number;
  body: unknown;
}

/**
 * Overflow errors as each provider or server sends them, modelled on their real responses:
 * Anthropic's `invalid_request_error` ("prompt is too long") and its 413 `request_too_large`;
 * OpenAI's `context_length_exceeded` (Chat and Responses wording); llama.cpp server's
 * `exceed_context_size_error`; vLLM's top-level `{object:"error"}` envelope; Ollama's
 * OpenAI-compatible envelope; LM Studio's plain `{error: "..."}`.
 */
export const OVERFLOW_ERROR_BODIES: Readonly<Record<Exclude<OverflowFlavor, "native">, OverflowErrorBody>> = {
  anthropic: {
    status: 400,
    body: {
      type: "error",
      error: { type: "invalid_request_error", message: "prompt is too long: 208310 tokens > 200000 maximum" },
    },
  },
  "anthropic-413": {
    status: 413,
    body: {
      type: "error",
      error: { type: "request_too_large", message: "Request exceeds the maximum allowed number of bytes." },
    },
  },
  "openai-chat": {
    status: 400,
    body: {
      error: {
        message:
          "This model's maximum context length is 128000 tokens. However, your messages resulted in 130412 tokens. Please reduce the length of the messages.",
        type: "invalid_request_error",
        param: "messages",
        code: "context_length_exceeded",
      },
    },
  },
  "openai-responses": {
    status: 400,
    body: {
      error: {
        message:
          "Your input exceeds the context window of this model. Please adjust your input and try again.",
        type: "invalid_request_error",
        param: "input",
        code: "context_length_exceeded",
      },
    },
  },
  "llama.cpp": {
    status: 400,
    body: {
      error: {
        code: 400,
        message: "the request exceeds the available context size, try increasing it",
        type: "exceed_context_size_error",
        n_prompt_tokens: 4711,
        n_ctx: 4096,
      },
    },
  },
  vllm: {
    status: 400,
    body: {
      object: "error",
      message:
        "This model's maximum context length is 4096 tokens. However, you requested 4608 tokens (4096 in the messages, 512 in the completion). Please reduce the length of the messages or completion.",
      type: "BadRequestError",
      param: null,
      code: 400,
    },
  },
  ollama: {
    status: 400,
    body: {
      error: {
        message: "prompt too long; exceeded max context length by 1024 tokens",
        type: "invalid_request_error",
        param: null,
        code: null,
      },
    },
  },
  "lm-studio": {
    status: 400,
    body: {
      error:
        "The number of tokens to keep from the initial prompt is greater than the context length. Try to load a model with a larger context length, or provide a shorter input",
    },
  },
};

const NATIVE: Record<WireRoute, Exclude<OverflowFlavor, "native">> = {
  "anthropic-messages": "anthropic",
  "openai-chat": "openai-chat",
  "openai-responses": "openai-responses",
};

/** The overflow body for `flavor`, resolving `"native"` by route. */
export function overflowErrorBody(flavor: OverflowFlavor, route: WireRoute): OverflowErrorBody {
  return OVERFLOW_ERROR_BODIES[flavor === "native" ? NATIVE[route] : flavor];
}
