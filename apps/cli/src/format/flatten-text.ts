import { sanitizeTerminalText } from "./sanitize-terminal-text";

/**
 * True for the characters JavaScript's `\s` matches that are not control characters: space, tab,
 * newline, and the Unicode spaces (U+00A0, U+1680, U+2000–U+200A, U+2028, U+2029, U+202F, U+205F,
 * U+3000, U+FEFF). VT, FF and CR are control characters: text holding them takes the regex path.
 */
function isPlainSpace(code: number): boolean {
  if (code <= 0x20) return code === 0x20 || code === 0x09 || code === 0x0a;
  if (code < 0xa0) return false;
  return (
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

/** True for a character `sanitizeTerminalText` removes or starts a sequence with (CR included). */
function isControl(code: number): boolean {
  return (
    (code < 0x20 && code !== 0x09 && code !== 0x0a) ||
    (code >= 0x7f && code <= 0x9f) ||
    (code >= 0x202a && code <= 0x202e) ||
    (code >= 0x2066 && code <= 0x2069)
  );
}

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
      if (isPlainSpace(code)) {
        if (run < 0) run = at;
        continue;
      }
      if (code < 0x20 || code <= 0x9f || (code >= 0x202a && isControl(code))) return slowFlatten(text);
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
