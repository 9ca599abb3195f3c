import type { AgentMessage } from "@arbor/agent-loop";
import type { TokenCounter } from "../tokens/token-counter";

/**
 * Per-counter caches of token counts keyed by object identity (a message, or a session entry whose
 * contribution is unedited). Entries and messages of a session are immutable once written, so a
 * growing session only pays for what was appended. WeakMaps let the counts die with the objects.
 */
const messageCaches = new WeakMap<TokenCounter, WeakMap<object, number>>();
const entryCaches = new WeakMap<TokenCounter, WeakMap<object, number>>();

function cacheFor(store: WeakMap<TokenCounter, WeakMap<object, number>>, counter: TokenCounter) {
  let cache = store.get(counter);
  if (cache === undefined) {
    cache = new WeakMap();
    store.set(counter, cache);
  }
  return cache;
}

/** Tokens of one message, cached per message object. */
export function countMessageCached(counter: TokenCounter, message: AgentMessage): number {
  if (message === null || typeof message !== "object") return 0;
  const cache = cacheFor(messageCaches, counter);
  let tokens = cache.get(message);
  if (tokens === undefined) {
    tokens = counter.countMessage(message);
    cache.set(message, tokens);
  }
  return tokens;
}

/** Tokens of several messages (no cache of the sum). */
export function countMessagesCached(counter: TokenCounter, messages: readonly AgentMessage[]): number {
  let total = 0;
  for (const message of messages) total += countMessageCached(counter, message);
  return total;
}

/**
 * Tokens of the messages an entry contributes when no edit applies, cached per entry object.
 * `produce` is called only on a cache miss.
 */
export function countEntryCached(
  counter: TokenCounter,
  entry: object,
  produce: () => readonly AgentMessage[],
): number {
  const cache = cacheFor(entryCaches, counter);
  let tokens = cache.get(entry);
  if (tokens === undefined) {
    tokens = countMessagesCached(counter, produce());
    cache.set(entry, tokens);
  }
  return tokens;
}
