import { safeJsonStringify } from "../format/safe-json-stringify";

/**
 * Serializes a session event as one JSON line for `arbor -p --json`. Errors (which `JSON.stringify`
 * turns into `{}`) become `{ name, code, message }`. A `message_update` is written without the partial
 * message it carries twice (`message` and `assistantMessageEvent.partial`): its provider event (the delta) is
 * enough, and the whole message follows with `message_end`. That keeps the output linear in the
 * length of an answer instead of quadratic. For the same reason a `turn_end` is written without its
 * boundary preview (`context`: the whole next request, repeated at every turn). Everything else is written as is; control characters in
 * strings are escaped (see `safeJsonStringify`), so the line is inert on a terminal.
 */
export function eventToJson(event: unknown): string {
  return safeJsonStringify(withoutPartialMessage(event), (_key, value: unknown) => {
    if (value instanceof Error) {
      const code = (value as { code?: unknown }).code;
      return { name: value.name, ...(code !== undefined ? { code } : {}), message: value.message };
    }
    return value;
  });
}

function withoutPartialMessage(event: unknown): unknown {
  const update = event as { type?: unknown; message?: unknown; assistantMessageEvent?: unknown } | null;
  if (update?.type === "turn_end") {
    // The boundary preview repeats the whole context at every turn: left out, like a partial message.
    const { context: _context, ...rest } = update as Record<string, unknown>;
    return rest;
  }
  if (update?.type !== "message_update") return event;
  const { message: _message, assistantMessageEvent, ...rest } = update;
  if (typeof assistantMessageEvent !== "object" || assistantMessageEvent === null) return rest;
  const { partial: _partial, ...delta } = assistantMessageEvent as Record<string, unknown>;
  return { ...rest, assistantMessageEvent: delta };
}
