/**
 * Error texts that mean "the request does not fit the model's context window", collected from the
 * real error bodies of hosted APIs and OpenAI-compatible servers. Matching is case-insensitive.
 * Each entry names where the wording comes from, so that a new server's message can be added next
 * to its peers.
 */
export const CONTEXT_OVERFLOW_PATTERNS: readonly RegExp[] = [
  // Anthropic: "prompt is too long: 208310 tokens > 200000 maximum"; some proxies drop the "is".
  /prompt (?:is )?too long/i,
  // Anthropic 413 body type, and proxies that echo it.
  /request_too_large/i,
  // OpenAI Chat / vLLM: "This model's maximum context length is 128000 tokens".
  /maximum context length is \d+ tokens/i,
  // OpenAI wording variants and Mistral-style "exceeds the model's maximum context length (32768)".
  /exceeds (?:the )?(?:model'?s )?maximum context length(?: of \d+ tokens?|\s*\(\d+\))?/i,
  // OpenAI Chat advice sentence.
  /reduce the length of the messages/i,
  // OpenAI Responses: "Your input exceeds the context window of this model".
  /exceeds the context window/i,
  // OpenAI error code, also echoed by gateways in messages.
  /context[_ ]length[_ ]exceeded/i,
  // Anthropic stop reason / gateway code.
  /model_context_window_exceeded/i,
  // Generic gateways: "context window exceeded", "context window exceeds limit".
  /context window exceed(?:ed|s limit)/i,
  // llama.cpp server: "the request exceeds the available context size, try increasing it".
  /exceeds the available context size/i,
  // llama.cpp (newer): "prompt has 5000 tokens, but the configured context size is 4096 tokens".
  /prompt has \d+ tokens?, but the configured context size is \d+ tokens?/i,
  // Ollama: "prompt too long; exceeded max context length by 100 tokens".
  /prompt too long; exceeded (?:max )?context length/i,
  // LM Studio: "... tokens to keep from the initial prompt is greater than the context length".
  /greater than the context length/i,
  // Google Gemini: "The input token count (1200000) exceeds the maximum number of tokens allowed".
  /input token count.*exceeds the maximum/i,
  // Amazon Bedrock: "Input is too long for requested model."
  /input is too long for requested model/i,
  // Bedrock / other gateways: "prompt exceeds max length".
  /prompt exceeds max length/i,
  // Groq / OpenRouter style: "Please reduce the length... maximum prompt length is 8192".
  /maximum prompt length is \d+/i,
  // Together and similar: "exceeds maximum allowed input length of 32768 tokens".
  /exceeds (?:the )?maximum allowed input length of \d+ tokens?/i,
  // Fireworks-style: "The input (9000 tokens) is longer than the model's context length (8192 tokens)".
  /input \(\d+ tokens\) is longer than the model'?s context length \(\d+ tokens\)/i,
  // Generic: "... exceeds the limit of 131072".
  /exceeds the limit of \d+/i,
  // Moonshot / Kimi: "exceeded model token limit".
  /exceeded model token limit/i,
  // Mistral: "too large for model with 32768 maximum context length".
  /too large for model with \d+ maximum context length/i,
  // Alibaba DashScope / Qwen: "Range of input length should be [1, 30720]".
  /range of input length should be/i,
  // Generic short forms.
  /too many tokens/i,
  /token limit exceeded/i,
  // An HTTP 413 reported as text: "Anthropic API error (413): ..." or a bare "413 ...".
  /^(?:[\w .-]+ API error \(413\)|413(?:\s|:|$))/i,
  // Cerebras answers overflow with an empty 400/413 body; the SDK reports "400 status code (no body)".
  /^4(?:00|13)\s*(?:status code)?\s*\(no body\)/i,
  /API error \(4(?:00|13)\):\s*(?:status code\s*)?\(no body\)/i,
];

/**
 * Error texts that look like an overflow pattern but mean something retryable (rate limits and
 * throttling mention "too many tokens" per minute). They win over {@link CONTEXT_OVERFLOW_PATTERNS}.
 */
export const NOT_OVERFLOW_PATTERNS: readonly RegExp[] = [
  /^(?:throttling error|service unavailable):/i,
  /rate[ _-]?limit/i,
  /too many requests/i,
  /tokens per (?:min|minute|day)/i,
];

/**
 * True when `text` is a provider's way of saying the prompt exceeded the context window.
 * Pure; never throws.
 */
export function isContextOverflowText(text: string): boolean {
  if (NOT_OVERFLOW_PATTERNS.some((pattern) => pattern.test(text))) return false;
  return CONTEXT_OVERFLOW_PATTERNS.some((pattern) => pattern.test(text));
}
