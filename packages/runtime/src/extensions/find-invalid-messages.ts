/** Roles whose shape the runtime knows; other roles (declared by extensions) only need a `role`. */
const CONTENT_ROLES: Record<string, "text-or-blocks" | "blocks"> = {
  user: "text-or-blocks",
  system: "text-or-blocks",
  custom: "text-or-blocks",
  assistant: "blocks",
  toolResult: "blocks",
};
const STRING_FIELDS: Record<string, readonly string[]> = {
  toolResult: ["toolCallId"],
  bashExecution: ["command", "output"],
  branchSummary: ["summary"],
  compactionSummary: ["summary"],
};

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "string")
    return `the string ${JSON.stringify(value.length > 20 ? `${value.slice(0, 20)}…` : value)}`;
  return typeof value === "object" ? "an object" : `${typeof value} ${String(value)}`;
}

function blocksProblem(content: unknown, where: string, allowText: boolean): string | undefined {
  if (allowText && typeof content === "string") return undefined;
  if (!Array.isArray(content)) {
    return `${where}.content must be ${allowText ? "a string or " : ""}an array of content blocks, got ${describe(content)}`;
  }
  for (let index = 0; index < content.length; index++) {
    const block = content[index] as { type?: unknown } | null;
    if (typeof block !== "object" || block === null || typeof block.type !== "string") {
      return `${where}.content[${index}] is not a content block (an object with a string type), got ${describe(block)}`;
    }
  }
  return undefined;
}

function messageProblem(message: unknown, where: string): string | undefined {
  if (typeof message !== "object" || message === null || Array.isArray(message)) {
    return `${where} is not a message, got ${describe(message)}`;
  }
  const record = message as Record<string, unknown>;
  if (typeof record.role !== "string") return `${where} has no role (got ${describe(record.role)})`;
  const content = CONTENT_ROLES[record.role];
  if (content !== undefined) {
    const problem = blocksProblem(record.content, where, content === "text-or-blocks");
    if (problem !== undefined) return problem;
  }
  for (const field of STRING_FIELDS[record.role] ?? []) {
    if (typeof record[field] !== "string")
      return `${where}.${field} must be a string, got ${describe(record[field])}`;
  }
  return undefined;
}

/**
 * What is wrong with a list of messages from the `context` hook, or `undefined` when it can be
 * sent: it must be a non-empty array (when `original` was not empty) of objects with a string
 * `role`; for the roles the runtime knows, `content` must be a string or an array of content blocks
 * (objects with a string `type`) as the role allows, and the role's string fields must be strings
 * (`toolCallId`, `command` / `output`, `summary`). Other roles pass with a `role` alone (custom roles
 * are dropped by `convertToLlm` unless converted). One pass over the messages and their blocks;
 * never throws.
 */
export function findInvalidMessages(messages: unknown, original: readonly unknown[]): string | undefined {
  if (!Array.isArray(messages)) return `messages must be an array of messages, got ${describe(messages)}`;
  if (messages.length === 0 && original.length > 0) {
    return "messages is empty: the request would carry no message at all";
  }
  for (let index = 0; index < messages.length; index++) {
    const problem = messageProblem(messages[index], `messages[${index}]`);
    if (problem !== undefined) return problem;
  }
  return undefined;
}
