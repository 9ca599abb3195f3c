import type { ExtensionNoticeEvent } from "@arbor/runtime";

/** Longest notice printed, in characters; the rest is cut with an ellipsis. */
const MAX_NOTICE_LENGTH = 500;

/**
 * One line for an extension's `api.ui.notify` notice: `<extension>: <message>` with `warning:` or
 * `error:` before the message for those levels. Line breaks become spaces and the text is cut at
 * {@link MAX_NOTICE_LENGTH} characters (an extension cannot flood or redraw the screen; control
 * characters are neutralized by the output streams).
 */
export function formatExtensionNotice(event: ExtensionNoticeEvent): string {
  const flat = event.message.replace(/\s*[\r\n]+\s*/g, " ");
  const text = flat.length > MAX_NOTICE_LENGTH ? `${flat.slice(0, MAX_NOTICE_LENGTH)}…` : flat;
  const level = event.level === "info" ? "" : `${event.level}: `;
  return `${event.extensionId ?? "extension"}: ${level}${text}`;
}
