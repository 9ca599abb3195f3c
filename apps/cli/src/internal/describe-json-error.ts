/**
 * Turns a `JSON.parse` error into "line L, column C: reason" using the position Node reports
 * ("… at position N"); falls back to the raw message when there is no position.
 */
export function describeJsonError(text: string, error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const match = /at position (\d+)/.exec(message);
  if (!match) return message;
  const position = Number(match[1]);
  const before = text.slice(0, position);
  const line = before.split("\n").length;
  const column = position - before.lastIndexOf("\n");
  const reason = message.replace(/\s*(in JSON )?at position \d+.*$/s, "");
  return `line ${line}, column ${column}: ${reason}`;
}
