import type { AgentMessage } from "@arbor/agent-loop";

/** The facts a later turn could need, read mechanically from a recorded path. */
export interface RetentionFacts {
  /** `path` / `file_path` arguments of tool calls (files read, written, edited, listed). */
  paths: string[];
  /** Ids and numbers in the user's prompts (tokens with a digit, 2+ characters). */
  identifiers: string[];
  /** Sentences of the user's prompts that state a constraint (do not, never, only, must, avoid, …). */
  constraints: string[];
}

/** How many facts are still visible to the model. */
export interface RetentionResult {
  total: number;
  visible: number;
  /** `visible / total` (1 when there is no fact). */
  score: number;
  missing: string[];
}

const CONSTRAINT =
  /\b(do not|don't|dont|never|must not|mustn't|must|should not|shouldn't|avoid|only|without|keep)\b/i;
const IDENTIFIER = /(?<![\w/.-])[A-Za-z_#-]*\d[\w.-]*(?![\w/])/g;
const MAX_PROMPT_CHARS = 4000;

/** Text blocks of a message content (strings and `text` blocks). */
function contentTexts(content: unknown): string[] {
  if (typeof content === "string") return [content];
  if (!Array.isArray(content)) return [];
  return content.flatMap((block) =>
    block && typeof block === "object" && (block as { type?: unknown }).type === "text"
      ? [String((block as { text: unknown }).text)]
      : [],
  );
}

/**
 * Extracts the facts of a recorded path: paths from tool-call arguments, identifiers and constraint
 * sentences from the user's prompts. User prompts longer than 4000 characters (pasted logs, files)
 * are skipped for identifiers and constraints. Deduplicated, in first-seen order. Pure.
 */
export function extractRetentionFacts(messages: readonly AgentMessage[]): RetentionFacts {
  const paths = new Set<string>();
  const identifiers = new Set<string>();
  const constraints = new Set<string>();
  for (const message of messages) {
    if (message.role === "assistant") {
      for (const block of message.content) {
        if (block.type !== "toolCall") continue;
        for (const key of ["path", "file_path"]) {
          const value = block.arguments?.[key];
          if (typeof value === "string" && value.length > 1 && value.length < 300) paths.add(value);
        }
      }
    } else if (message.role === "user") {
      const text = contentTexts(message.content).join("\n");
      if (text.length > MAX_PROMPT_CHARS) continue;
      for (const match of text.matchAll(IDENTIFIER)) {
        const token = match[0].replace(/[.-]+$/, "");
        if (token.length >= 2) identifiers.add(token);
      }
      for (const sentence of text.split(/[.!?\n]+/)) {
        const trimmed = sentence.trim();
        if (trimmed.length >= 8 && CONSTRAINT.test(trimmed)) constraints.add(trimmed);
      }
    }
  }
  return { paths: [...paths], identifiers: [...identifiers], constraints: [...constraints] };
}

/** Every string the model reads from a context (contents, summaries, tool-call arguments, shell runs). */
export function visibleText(messages: readonly AgentMessage[]): string {
  const parts: string[] = [];
  const walk = (value: unknown) => {
    if (typeof value === "string") parts.push(value);
    else if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === "object") {
      for (const [key, inner] of Object.entries(value)) {
        if (key === "details" || key === "usage" || key === "thinkingSignature" || key === "data") continue;
        walk(inner);
      }
    }
  };
  for (const message of messages) walk(message);
  return parts.join("\n");
}

const words = (text: string) => new Set((text.toLowerCase().match(/[a-z0-9_]{4,}/g) ?? []).filter(Boolean));

/**
 * Measures retention: a path or identifier is visible when it occurs verbatim in `visible`; a
 * constraint when at least 60% of its words of 4+ characters occur in it. Pure.
 */
export function measureRetention(facts: RetentionFacts, visible: string): RetentionResult {
  const visibleWords = words(visible);
  const missing: string[] = [];
  let seen = 0;
  for (const fact of [...facts.paths, ...facts.identifiers]) {
    if (visible.includes(fact)) seen++;
    else missing.push(fact);
  }
  for (const constraint of facts.constraints) {
    const own = [...words(constraint)];
    const present = own.filter((word) => visibleWords.has(word)).length;
    if (own.length === 0 || present / own.length >= 0.6) seen++;
    else missing.push(constraint);
  }
  const total = facts.paths.length + facts.identifiers.length + facts.constraints.length;
  return { total, visible: seen, score: total === 0 ? 1 : seen / total, missing };
}
