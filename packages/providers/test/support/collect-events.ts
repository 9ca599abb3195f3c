import type { ProviderError } from "../../src/errors/provider-error";
import type { AssistantMessage, ProviderEvent } from "../../src/index";

/** Everything a stream produced, with its final message and error (if any). */
export interface CollectedStream {
  events: ProviderEvent[];
  types: string[];
  message: AssistantMessage;
  error: ProviderError | undefined;
}

/**
 * Drains a provider stream and checks the envelope every stream must have: exactly one `start`
 * first and exactly one `done` / `error` last. Throws when the envelope is broken.
 */
export async function collectEvents(stream: AsyncIterable<ProviderEvent>): Promise<CollectedStream> {
  const events: ProviderEvent[] = [];
  for await (const event of stream) events.push(event);
  const types = events.map((event) => event.type);
  const last = events[events.length - 1];
  if (types[0] !== "start" || types.filter((type) => type === "start").length !== 1) {
    throw new Error(`stream must open with exactly one start event, got ${types.join(",")}`);
  }
  if (!last || (last.type !== "done" && last.type !== "error")) {
    throw new Error(`stream must end with done or error, got ${types.join(",")}`);
  }
  if (types.filter((type) => type === "done" || type === "error").length !== 1) {
    throw new Error(`stream must have exactly one final event, got ${types.join(",")}`);
  }
  return { events, types, message: last.message, error: last.type === "error" ? last.error : undefined };
}
