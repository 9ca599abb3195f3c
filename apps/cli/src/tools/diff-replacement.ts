/** Lines of unchanged context around a change in {@link diffReplacement}. */
const CONTEXT_LINES = 3;

function splitLines(text: string): string[] {
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  return lines;
}

/**
 * The unified diff (one hunk, 3 lines of context, `--- a/path` / `+++ b/path` headers) of replacing
 * `oldText` at character `index` of `original` by `newText`. Whole lines are compared: the lines
 * the replacement touches, minus the leading and trailing lines that stay the same. A file without a
 * final newline gets git's `\ No newline at end of file` marker where it matters. Pure.
 */
export function diffReplacement(input: {
  path: string;
  original: string;
  index: number;
  oldText: string;
  newText: string;
}): string {
  const { original, index, oldText, newText } = input;
  const updated = original.slice(0, index) + newText + original.slice(index + oldText.length);
  const before = splitLines(original);
  const after = splitLines(updated);
  // The changed region: skip equal lines from the start and from the end.
  let start = 0;
  while (start < before.length && start < after.length && before[start] === after[start]) start++;
  let endBefore = before.length;
  let endAfter = after.length;
  while (endBefore > start && endAfter > start && before[endBefore - 1] === after[endAfter - 1]) {
    endBefore--;
    endAfter--;
  }
  if (original.endsWith("\n") !== updated.endsWith("\n") && endBefore === before.length) {
    // The final newline came or went: the last line is changed even if its text is equal.
    start = Math.min(start, Math.max(0, before.length - 1), Math.max(0, after.length - 1));
    endBefore = before.length;
    endAfter = after.length;
  }
  const from = Math.max(0, start - CONTEXT_LINES);
  const toBefore = Math.min(before.length, endBefore + CONTEXT_LINES);
  const toAfter = endAfter + (toBefore - endBefore);
  const lines: string[] = [];
  const add = (prefix: string, text: string, last: boolean, source: string) => {
    lines.push(`${prefix}${text}`);
    if (last && !source.endsWith("\n")) lines.push("\\ No newline at end of file");
  };
  for (let i = from; i < start; i++) lines.push(` ${before[i]}`);
  for (let i = start; i < endBefore; i++) add("-", before[i] as string, i === before.length - 1, original);
  for (let i = start; i < endAfter; i++) add("+", after[i] as string, i === after.length - 1, updated);
  for (let i = endBefore; i < toBefore; i++) add(" ", before[i] as string, i === before.length - 1, original);
  const range = (first: number, count: number) => `${count === 0 ? first : first + 1},${count}`;
  const header = `@@ -${range(from, toBefore - from)} +${range(from, toAfter - from)} @@`;
  return [`--- a/${input.path}`, `+++ b/${input.path}`, header, ...lines].join("\n");
}
