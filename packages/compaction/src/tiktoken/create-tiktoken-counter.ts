import { createRequire } from "node:module";
import {
  type AgentMessage,
  BRANCH_SUMMARY_PREFIX,
  BRANCH_SUMMARY_SUFFIX,
  COMPACTION_SUMMARY_PREFIX,
  COMPACTION_SUMMARY_SUFFIX,
  formatBashExecution,
  renderSystemPrompt,
} from "@arbor/agent-loop";
import { MissingPeerDependencyError, type SystemMessage } from "@arbor/providers";
import type { TokenCounter } from "../tokens/token-counter";
import { createBytePairCounter } from "./internal/byte-pair-counter";
import { createPieceTokenCounter, type PieceTokenCounter } from "./internal/piece-token-counter";

/** Encodings shipped with js-tiktoken. `o200k_base` is GPT-4o and later; `cl100k_base` GPT-4 / 3.5. */
export type TiktokenEncodingName =
  | "o200k_base"
  | "cl100k_base"
  | "p50k_base"
  | "p50k_edit"
  | "r50k_base"
  | "gpt2";

/** Options of {@link createTiktokenCounter}. */
export interface TiktokenCounterOptions {
  /** Default `o200k_base`. */
  encoding?: TiktokenEncodingName;
  /** Tokens counted per image block (images are not tokenized as text). Default 1200, as the chars/4 estimate. */
  imageTokens?: number;
  /** Tokens added per message for the chat framing (role markers). Default 4. */
  messageOverheadTokens?: number;
}

/** Work done by a {@link TiktokenCounter}, for tests and diagnostics. */
export interface TiktokenCounterStats {
  /** Texts handed to the tokenizer. */
  tokenizerCalls: number;
  /** Characters handed to the tokenizer. */
  charactersTokenized: number;
  /** Messages answered from the per-message cache. */
  cacheHits: number;
}

/** An exact token counter for OpenAI-style encodings. */
export interface TiktokenCounter extends TokenCounter {
  readonly encoding: TiktokenEncodingName;
  /** Tokens of a plain text (cached for long texts). Loads the tokenizer on first use. */
  countText(text: string): number;
  /** Loads the tokenizer now instead of on first use (about 0.2 s for o200k_base). */
  preload(): void;
  /** Counters of the work done so far (a live object). */
  readonly stats: Readonly<TiktokenCounterStats>;
}

const encoders = new Map<string, PieceTokenCounter>();

/**
 * Reads one of js-tiktoken's rank files, once per process and encoding (synchronous, ~0.2 s for
 * o200k_base), and returns its counter (see `createPieceTokenCounter`, `createBytePairCounter`).
 */
function loadEncoder(encoding: TiktokenEncodingName): PieceTokenCounter {
  let encoder = encoders.get(encoding);
  if (encoder === undefined) {
    const require = createRequire(import.meta.url);
    let ranks: { default?: unknown };
    try {
      ranks = require(`js-tiktoken/ranks/${encoding}`) as typeof ranks;
    } catch (error) {
      if ((error as { code?: unknown }).code !== "MODULE_NOT_FOUND") throw error;
      throw new MissingPeerDependencyError({
        packageName: "js-tiktoken",
        versionRange: "^1.0.21",
        neededBy: "@arbor/compaction/tiktoken",
        cause: error,
      });
    }
    const table = (ranks.default ?? ranks) as { pat_str: string; bpe_ranks: string };
    encoder = createPieceTokenCounter(createBytePairCounter(table.bpe_ranks), table.pat_str);
    encoders.set(encoding, encoder);
  }
  return encoder;
}

const TEXT_CACHE_MIN_LENGTH = 256;
const TEXT_CACHE_MAX_ENTRIES = 4096;

/** Texts the model reads for one message, and its image count. */
function messageParts(message: AgentMessage): { texts: string[]; images: number } {
  const texts: string[] = [];
  let images = 0;
  const addContent = (content: unknown) => {
    if (typeof content === "string") texts.push(content);
    else if (Array.isArray(content)) {
      for (const block of content as Array<Record<string, unknown>>) {
        if (!block || typeof block !== "object") continue;
        if (block.type === "text" && typeof block.text === "string") texts.push(block.text);
        else if (block.type === "thinking" && typeof block.thinking === "string") texts.push(block.thinking);
        else if (block.type === "image") images++;
        else if (block.type === "toolCall")
          texts.push(String(block.name), JSON.stringify(block.arguments ?? {}));
      }
    }
  };
  switch (message.role) {
    case "system": {
      const system = message as SystemMessage;
      texts.push(renderSystemPrompt({ ...system, content: system.content ?? "" }));
      if (system.toolsAdded?.length) texts.push(JSON.stringify(system.toolsAdded));
      break;
    }
    case "user":
    case "assistant":
    case "toolResult":
    case "custom":
      addContent(message.content);
      break;
    case "bashExecution":
      texts.push(formatBashExecution(message));
      break;
    case "compactionSummary":
      texts.push(COMPACTION_SUMMARY_PREFIX + message.summary + COMPACTION_SUMMARY_SUFFIX);
      break;
    case "branchSummary":
      texts.push(BRANCH_SUMMARY_PREFIX + message.summary + BRANCH_SUMMARY_SUFFIX);
      break;
    default:
      break;
  }
  return { texts, images };
}

/**
 * Creates an exact token counter over js-tiktoken's rank files (an optional peer dependency). The
 * ranks load lazily, on the first count (or on `preload()`), once per process and encoding.
 *
 * A message counts the text the model reads (as Arbor's default `convertToLlm` renders it: summaries
 * with their wrapper, shell runs with their framing, tool calls as name plus JSON arguments), plus
 * `imageTokens` per image and `messageOverheadTokens`. Special-token strings in the text are counted as
 * plain text, never rejected.
 *
 * Counts are cached per message object (a WeakMap), and long texts are also cached by value, so a growing
 * session is only tokenized for what was appended. Messages must not be mutated after being counted.
 * A text is split with the encoding's pattern and each distinct piece (a word, a run of spaces or
 * punctuation) is counted once per process, by byte-pair merges taken from a heap (a piece of n bytes
 * costs O(n log n), so a hostile run of letters or `=` cannot stall it); the count is the same as
 * js-tiktoken's `encode(text, [], [])`.
 *
 * @throws MissingPeerDependencyError (from `@arbor/providers`, code `MISSING_PEER_DEPENDENCY`) when
 * js-tiktoken is not installed (at the first count or `preload()`, not at creation).
 */
export function createTiktokenCounter(options: TiktokenCounterOptions = {}): TiktokenCounter {
  const encoding = options.encoding ?? "o200k_base";
  const imageTokens = options.imageTokens ?? 1200;
  const overhead = options.messageOverheadTokens ?? 4;
  const stats: TiktokenCounterStats = { tokenizerCalls: 0, charactersTokenized: 0, cacheHits: 0 };
  const messageCache = new WeakMap<object, number>();
  const textCache = new Map<string, number>();

  const tokenize = (text: string): number => {
    if (text.length === 0) return 0;
    stats.tokenizerCalls++;
    stats.charactersTokenized += text.length;
    return loadEncoder(encoding)(text);
  };

  const countText = (text: string): number => {
    if (text.length < TEXT_CACHE_MIN_LENGTH) return tokenize(text);
    const cached = textCache.get(text);
    if (cached !== undefined) return cached;
    const tokens = tokenize(text);
    if (textCache.size >= TEXT_CACHE_MAX_ENTRIES) textCache.delete(textCache.keys().next().value as string);
    textCache.set(text, tokens);
    return tokens;
  };

  const countMessage = (message: AgentMessage): number => {
    const cached = messageCache.get(message);
    if (cached !== undefined) {
      stats.cacheHits++;
      return cached;
    }
    const { texts, images } = messageParts(message);
    let tokens = overhead + images * imageTokens;
    for (const text of texts) tokens += countText(text);
    messageCache.set(message, tokens);
    return tokens;
  };

  return {
    name: `tiktoken:${encoding}`,
    encoding,
    countMessage,
    countText,
    preload: () => void loadEncoder(encoding),
    stats,
  };
}
