/**
 * Characters `JSON.stringify` leaves raw that a terminal may act on or display misleadingly: DEL,
 * the C1 controls (U+0080–U+009F; U+009B is an 8-bit CSI), the line and paragraph separators, and
 * the bidirectional overrides and isolates.
 */
const RAW_CONTROLS = /[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/**
 * `JSON.stringify` whose output is inert on a terminal: besides the C0 controls (escaped by
 * `JSON.stringify` itself, so ESC is written as `\u001b`), every character of `RAW_CONTROLS` is
 * written as a `\uXXXX` escape. Such characters can only occur inside JSON strings, so the result is
 * the same JSON value. Same contract as `JSON.stringify` otherwise.
 */
export function safeJsonStringify(
  value: unknown,
  replacer?: (this: unknown, key: string, value: unknown) => unknown,
): string {
  const json = JSON.stringify(value, replacer);
  return json.replace(
    RAW_CONTROLS,
    (char) => `\\u${(char.codePointAt(0) as number).toString(16).padStart(4, "0")}`,
  );
}
