function closeOpenStructures(text: string): string {
  const closers: string[] = [];
  let inString = false;
  let escaped = false;
  for (const char of text) {
    if (inString) {
      if (escaped) escaped = false;
      else if (char === "\\") escaped = true;
      else if (char === '"') inString = false;
      continue;
    }
    if (char === '"') inString = true;
    else if (char === "{") closers.push("}");
    else if (char === "[") closers.push("]");
    else if (char === "}" || char === "]") closers.pop();
  }
  let repaired = text;
  if (inString) repaired += escaped ? '\\"' : '"';
  repaired = repaired.replace(/[\s,:]+$/, "");
  return repaired + closers.reverse().join("");
}

function tryParseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Parses tool call arguments that may still be arriving: complete JSON is parsed as is; a cut-off
 * object is closed (open strings, arrays and objects) and, when a dangling key or value stays
 * unreadable, cut back to the last complete member. Returns `{}` when nothing readable remains or
 * the JSON is not an object. Pure; never throws.
 */
export function parsePartialJson(text: string): Record<string, unknown> {
  if (text.trim() === "") return {};
  const complete = tryParseObject(text);
  if (complete) return complete;
  let candidate = text;
  for (let attempt = 0; attempt < 64 && candidate.length > 0; attempt++) {
    const parsed = tryParseObject(closeOpenStructures(candidate));
    if (parsed) return parsed;
    const cut = candidate.lastIndexOf(",");
    if (cut < 0) break;
    candidate = candidate.slice(0, cut);
  }
  return tryParseObject(closeOpenStructures(text.slice(0, text.indexOf("{") + 1))) ?? {};
}
