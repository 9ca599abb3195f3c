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
  return escapeRawControls(JSON.stringify(value, replacer));
}

/**
 * {@link safeJsonStringify} of a plain object, except that the fields named in `rawJson` are given as
 * JSON text already and written as they are, at their place in the object's key order (a field
 * missing from `value` is not written). For a field too large to be worth making into values only to
 * serialize them: `arbor inspect --json`'s `path`, 85,000 ids at 100,000 entries, comes from
 * `SessionStore.getPathIdsJson`. Each text must be one JSON value; it is made inert like the rest.
 */
export function safeJsonStringifyWithRawFields(
  value: Readonly<Record<string, unknown>>,
  rawJson: Readonly<Record<string, string>>,
): string {
  const fields: string[] = [];
  for (const key of Object.keys(value)) {
    const text = Object.hasOwn(rawJson, key) ? rawJson[key] : JSON.stringify(value[key]);
    // As JSON.stringify does, a field whose value has no JSON form (undefined, a function) is left out.
    if (text !== undefined) fields.push(`${JSON.stringify(key)}:${text}`);
  }
  return escapeRawControls(`{${fields.join(",")}}`);
}

function escapeRawControls(json: string): string {
  return json.replace(
    RAW_CONTROLS,
    (char) => `\\u${(char.codePointAt(0) as number).toString(16).padStart(4, "0")}`,
  );
}
