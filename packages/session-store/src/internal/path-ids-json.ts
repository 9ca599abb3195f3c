import type { EntryTable } from "./entry-table";

const COMMA = 0x2c;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
/** The most bytes one packed id takes in the text: a comma, two quotes and 8 characters. */
const MOST_PER_ID = 11;

/**
 * The text of `JSON.stringify(ids)`, where `ids` are the ids of the entries `upward` lists from the
 * leaf up (so written from its end: root first), leaving out entries without an id and entries found
 * invalid, as `getPathIds` does. An id the loaded records keep as bytes is copied from them, with no
 * string per id; any other id (or one with a quote, a backslash or a control character, which JSON
 * escapes) goes through `JSON.stringify`.
 */
export function pathIdsJson(table: EntryTable, upward: Int32Array): string {
  const out = Buffer.allocUnsafe(upward.length * MOST_PER_ID + 2);
  const parts: string[] = [];
  let at = 0;
  let from = 0;
  let first = true;
  out[at++] = 0x5b;
  for (let k = upward.length - 1; k >= 0; k--) {
    const index = upward[k] as number;
    if (table.isInvalid(index)) continue;
    const open = first ? at : at + 1;
    const length = table.copyIdBytes(index, out, open + 1);
    if (length > 0 && plainBytes(out, open + 1, length)) {
      if (!first) out[at] = COMMA;
      out[open] = QUOTE;
      out[open + 1 + length] = QUOTE;
      at = open + length + 2;
      first = false;
      continue;
    }
    const id = table.idOf(index);
    if (id === undefined) continue;
    parts.push(out.toString("latin1", from, at), first ? JSON.stringify(id) : `,${JSON.stringify(id)}`);
    from = at;
    first = false;
  }
  out[at++] = 0x5d;
  parts.push(out.toString("latin1", from, at));
  return parts.length === 1 ? (parts[0] as string) : parts.join("");
}

/** True when JSON writes the bytes `out[at, at + length)` as they are (no escape). */
function plainBytes(out: Uint8Array, at: number, length: number): boolean {
  for (let k = at; k < at + length; k++) {
    const byte = out[k] as number;
    if (byte < 0x20 || byte === QUOTE || byte === BACKSLASH) return false;
  }
  return true;
}
