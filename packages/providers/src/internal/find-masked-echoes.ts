import type { Range } from "./window-index";

/** What masks a key in an echo: two or more `*`, an ellipsis, three or more dots, bullets. */
const MASK = /\*{2,}|…+|\.{3,}|•+/g;
/** Most characters of a secret compared on either side of a mask. */
const MAX_AFFIX = 16;
/** Fewest characters of the secret (both sides together) that make a masked echo. */
const MIN_SHOWN = 4;
/** Longest token scanned around a mask. */
const MAX_TOKEN = 256;

function isTokenChar(code: number): boolean {
  return (
    (code >= 48 && code <= 57) ||
    (code >= 65 && code <= 90) ||
    (code >= 97 && code <= 122) ||
    code === 45 ||
    code === 95
  );
}

/** Longest L such that the L characters before `at` are the first L characters of `secret`. */
function shownPrefix(text: string, at: number, secret: string): number {
  for (let length = Math.min(MAX_AFFIX, secret.length, at); length > 0; length--) {
    if (secret.charCodeAt(length - 1) !== text.charCodeAt(at - 1)) continue;
    let same = true;
    for (let j = 0; j < length && same; j++) same = text.charCodeAt(at - length + j) === secret.charCodeAt(j);
    if (same) return length;
  }
  return 0;
}

/** Longest R such that the R characters from `at` are the last R characters of `secret`. */
function shownSuffix(text: string, at: number, secret: string): number {
  for (let length = Math.min(MAX_AFFIX, secret.length, text.length - at); length > 0; length--) {
    const from = secret.length - length;
    if (secret.charCodeAt(from) !== text.charCodeAt(at)) continue;
    let same = true;
    for (let j = 0; j < length && same; j++) same = text.charCodeAt(at + j) === secret.charCodeAt(from + j);
    if (same) return length;
  }
  return 0;
}

/**
 * Spans of `text` that echo a secret masked: a mask with the secret's first characters right before
 * it and / or its last characters right after it, at least 4 of them in all (`sk-…abcd`,
 * `sk-ab***xyz`, `****6655`). The span is the whole token around the mask (key characters
 * `[A-Za-z0-9_-]` on both sides), so `CANARY***6655` goes entirely when `6655` ends the key.
 * Linear in the text: each mask compares at most 16 characters per side and secret.
 */
export function findMaskedEchoes(text: string, secrets: readonly string[]): Range[] {
  const ranges: Range[] = [];
  if (secrets.length === 0) return ranges;
  for (const match of text.matchAll(MASK)) {
    const maskStart = match.index;
    const maskEnd = maskStart + match[0].length;
    const echoed = secrets.some(
      (secret) => shownPrefix(text, maskStart, secret) + shownSuffix(text, maskEnd, secret) >= MIN_SHOWN,
    );
    if (!echoed) continue;
    let start = maskStart;
    while (start > 0 && maskStart - start < MAX_TOKEN && isTokenChar(text.charCodeAt(start - 1))) start--;
    let end = maskEnd;
    while (end < text.length && end - maskEnd < MAX_TOKEN && isTokenChar(text.charCodeAt(end))) end++;
    ranges.push({ start, end });
  }
  return ranges;
}
