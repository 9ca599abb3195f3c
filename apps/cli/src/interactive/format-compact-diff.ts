import { sanitizeTerminalText } from "../format/sanitize-terminal-text";
import type { TerminalStyle } from "./terminal-style";

/** The most diff lines the interactive mode shows for one edit. */
export const MAX_COMPACT_DIFF_LINES = 12;

/**
 * The changed lines of a unified diff, for the interactive mode: the `-` lines in red and the `+`
 * lines in green (headers and context left out), each clipped to `width`, at most
 * {@link MAX_COMPACT_DIFF_LINES}, then `… N more changed lines`. The file's text is made inert
 * (tabs shown as two spaces). Pure.
 */
export function formatCompactDiff(diff: string, style: TerminalStyle, width: number): string[] {
  const changed = diff
    .split("\n")
    .filter((line) => /^[-+]/.test(line) && !line.startsWith("--- ") && !line.startsWith("+++ "));
  const shown = changed.slice(0, MAX_COMPACT_DIFF_LINES).map((line) => {
    const text = sanitizeTerminalText(line).replace(/\t/g, "  ").replace(/\n/g, " ");
    const clipped = text.length > width ? `${text.slice(0, Math.max(1, width - 1))}…` : text;
    return line.startsWith("-") ? style.red(clipped) : style.green(clipped);
  });
  const more = changed.length - shown.length;
  if (more > 0) shown.push(style.dim(`… ${more} more changed line${more === 1 ? "" : "s"}`));
  return shown;
}
