import { sanitizeTerminalText } from "./sanitize-terminal-text";

/** An escape sequence cut off at the end of a chunk: an introducer without its end yet. */
const INCOMPLETE_TAIL =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: this regex exists to find control characters
  /(?:(?:\u001b\[|\u009b)[0-?]*[ -/]*|(?:\u001b[\]PX^_]|[\u0090\u0098\u009d\u009e\u009f])[^\u0007\u001b\u009c]*|\u001b[ -/]*)$/;

/** Longest cut-off sequence held back; a longer one is flushed (sanitized, so it goes). */
const MAX_HELD = 4096;

/**
 * Sanitizes streamed text (an answer arriving in deltas) with {@link sanitizeTerminalText}, holding
 * back an escape sequence split across chunks until its end arrives, so that it is removed whole
 * instead of leaving its parameters on screen. Nothing unsanitized is ever returned.
 */
export class TerminalTextStream {
  private held = "";

  /** Adds a chunk; returns the inert text ready to write (possibly empty). */
  push(chunk: string): string {
    const text = this.held + chunk;
    const tail = INCOMPLETE_TAIL.exec(text);
    const cut = tail !== null && tail[0].length <= MAX_HELD ? tail.index : text.length;
    this.held = text.slice(cut);
    return sanitizeTerminalText(text.slice(0, cut));
  }

  /** Returns whatever is held back, sanitized, and starts afresh. */
  flush(): string {
    const text = this.held;
    this.held = "";
    return sanitizeTerminalText(text);
  }
}
