/**
 * What {@link flatCharacterKind} says of a character: kept as it is (`0`), whitespace that a listing
 * collapses (`1`), or a control character that `sanitizeTerminalText` removes or starts a sequence
 * with (`2`).
 */
export type FlatCharacterKind = 0 | 1 | 2;

/**
 * How `flattenText` treats a UTF-16 code unit. Whitespace (`1`): the characters JavaScript's `\s`
 * matches that are not control characters: space, tab, newline, and the Unicode spaces (U+00A0,
 * U+1680, U+2000–U+200A, U+2028, U+2029, U+202F, U+205F, U+3000, U+FEFF). Control (`2`): the C0
 * controls but tab and newline (VT, FF and CR included), DEL, the C1 controls U+0080–U+009F, and the
 * bidirectional controls U+202A–U+202E and U+2066–U+2069. Everything else, lone surrogates included,
 * is kept (`0`). Pure.
 */
export function flatCharacterKind(code: number): FlatCharacterKind {
  if (code <= 0x20) return code === 0x20 || code === 0x09 || code === 0x0a ? 1 : 2;
  if (code < 0x7f) return 0;
  if (code <= 0x9f) return 2;
  if (code === 0xa0 || code === 0x1680 || (code >= 0x2000 && code <= 0x200a)) return 1;
  if (code === 0x2028 || code === 0x2029 || code === 0x202f || code === 0x205f) return 1;
  if (code === 0x3000 || code === 0xfeff) return 1;
  if ((code >= 0x202a && code <= 0x202e) || (code >= 0x2066 && code <= 0x2069)) return 2;
  return 0;
}
