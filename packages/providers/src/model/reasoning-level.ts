/**
 * How much a model should think before answering. `"off"` asks for no reasoning where the API
 * allows it; each adapter maps the levels to its API (Anthropic thinking budgets or effort, OpenAI
 * `reasoning_effort`). Ignored for models whose descriptor has `reasoning: false`.
 */
export type ReasoningLevel = "off" | "minimal" | "low" | "medium" | "high";
