import { flatCharacterKind } from "./flat-character-kind";
import { sanitizeTerminalText } from "./sanitize-terminal-text";

/**
 * `text` made one inert line for a listing: escape and control sequences removed (see
 * `sanitizeTerminalText`), each whitespace run (as `\s` matches) collapsed to one space, trimmed.
 * Plain text (no control character) is done in one pass over the characters that copies only around
 * the runs that change; other text takes the regular expressions. Both give the same result. Pure.
 */
export function flattenText(text: string): string {
  let out = "";
  // Copied up to here; a run of whitespace started at `run` (-1: not in a run).
  let copied = 0;
  let run = -1;
  const length = text.length;
  for (let at = 0; at < length; at++) {
    const code = text.charCodeAt(at);
    if (code === 0x20) {
      if (run < 0) run = at;
      continue;
    }
    // Printable ASCII, the common case, needs no other test.
    if (code <= 0x20 || code >= 0x7f) {
      const kind = flatCharacterKind(code);
      if (kind === 1) {
        if (run < 0) run = at;
        continue;
      }
      if (kind === 2) return slowFlatten(text);
    }
    if (run < 0) continue;
    // A run other than one space: replace it by one space (none at the start).
    if (at - run !== 1 || text.charCodeAt(run) !== 0x20 || run === 0) {
      out += run === 0 ? "" : `${text.slice(copied, run)} `;
      copied = at;
    }
    run = -1;
  }
  // A run at the end is trimmed away.
  return out + text.slice(copied, run < 0 ? length : run);
}

function slowFlatten(text: string): string {
  // Collapses each whitespace run to one space: runs of two or more, and single whitespace other
  // than a space (a lone space is left alone, which spares most of the replacements).
  return sanitizeTerminalText(text)
    .replace(/\s\s+|[^\S ]/g, " ")
    .trim();
}
