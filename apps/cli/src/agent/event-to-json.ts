/**
 * Serializes a session event as one JSON line. Errors (which `JSON.stringify` turns into `{}`) become
 * `{ name, code, message }`; everything else is written as is.
 */
export function eventToJson(event: unknown): string {
  return JSON.stringify(event, (_key, value: unknown) => {
    if (value instanceof Error) {
      const code = (value as { code?: unknown }).code;
      return { name: value.name, ...(code !== undefined ? { code } : {}), message: value.message };
    }
    return value;
  });
}
