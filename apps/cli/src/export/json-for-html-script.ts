/**
 * `JSON.stringify(value)` made safe to place inside `<script type="application/json">`: every `<` is
 * written as the escape `\u003c`, so the element's text can hold neither `</script` (which would end
 * the element) nor `<!--` (which changes how the HTML parser reads script text). A `<` can only occur
 * inside JSON strings, so `JSON.parse` of the element's text gives back the same value. `>` and `&`
 * have no meaning in script text and are left as they are. Pure.
 *
 * @throws TypeError as `JSON.stringify` does (cycles, BigInt).
 */
export function jsonForHtmlScript(value: unknown): string {
  return JSON.stringify(value).replaceAll("<", "\\u003c");
}

/** Escapes text for an HTML element or a quoted attribute (`&`, `<`, `>`, `"`, `'`). Pure. */
export function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (char) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[char] as string,
  );
}
