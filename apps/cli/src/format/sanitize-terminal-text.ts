/**
 * Escape and control sequences, matched whole so that their parameters and payloads go too:
 * - CSI (`ESC [` or the C1 byte U+009B) with parameters and a final byte: cursor moves, screen and
 *   line clears, colors (SGR, `…m`), mode switches (alternate screen, mouse reporting);
 * - OSC, DCS, SOS, PM, APC (`ESC ]`, `ESC P`, `ESC X`, `ESC ^`, `ESC _`, or their C1 bytes) up to BEL
 *   or ST (`ESC \` or U+009C), or to the end of the text when unterminated: window titles,
 *   OSC 52 clipboard writes, hyperlinks, terminal queries;
 * - the other escapes: `ESC` + intermediates + a final byte (`ESC ( 0` charsets, `ESC # 8` screen
 *   fill), `ESC c` (reset), `ESC 7`/`ESC 8`, and a lone `ESC`;
 * - the remaining C0 controls except tab and newline (BS, CR, BEL, FF, VT, SO/SI...), DEL, and the
 *   C1 controls U+0080–U+009F;
 * - the bidirectional overrides and isolates (U+202A–U+202E, U+2066–U+2069) that make text display
 *   in another order than it is read ("Trojan Source").
 */
const CONTROL_SEQUENCES =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: this regex exists to find control characters
  /(?:\u001b\[|\u009b)[0-?]*[ -/]*[@-~]?|(?:\u001b[\]PX^_]|[\u0090\u0098\u009d\u009e\u009f])[^\u0007\u001b\u009c]*(?:\u0007|\u001b\\|\u009c)?|\u001b[ -/]*[0-~]?|[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/**
 * The characters every match of `CONTROL_SEQUENCES` starts with (ESC, the C0 and C1 controls, DEL,
 * the bidirectional controls), CR included: text without any of them is already inert.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: this regex exists to find control characters
const CONTROL_START = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

/** An SGR sequence (colors, bold, dim, inverse): what Arbor's own terminal styling writes. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matches the escape character on purpose
const SGR = /^\u001b\[[0-9;]*m$/;

/** What {@link sanitizeTerminalText} keeps besides plain text. */
export interface SanitizeTerminalTextOptions {
  /**
   * Keep SGR sequences (`ESC [ … m`: colors, bold, inverse), for output already styled by Arbor;
   * untrusted text must be sanitized without this before it is styled. Default `false`.
   */
  keepStyles?: boolean;
}

/**
 * Makes text inert on a terminal: removes every escape and control sequence and bidirectional
 * override (see `CONTROL_SEQUENCES`), keeps tab and newline, and turns CRLF into LF (a lone CR,
 * which could overwrite the line on screen, is removed). Every string that comes from a model, a tool,
 * a session file or a settings file goes through this before it is written to the terminal. Pure.
 */
export function sanitizeTerminalText(text: string, options: SanitizeTerminalTextOptions = {}): string {
  // The common case, plain text, is returned as it is after one scan of a character class.
  if (!CONTROL_START.test(text)) return text;
  const normalized = text.includes("\r") ? text.replace(/\r\n/g, "\n") : text;
  return normalized.replace(CONTROL_SEQUENCES, (sequence) =>
    options.keepStyles === true && SGR.test(sequence) ? sequence : "",
  );
}
