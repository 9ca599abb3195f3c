/**
 * A hand-written check of the common entry shapes, run before the zod schemas of
 * `entry-schemas.ts`. It is sound, never lenient: it returns `true` only for values those schemas
 * accept, and `false` for everything else, including valid shapes it does not model (the caller then
 * asks zod, which decides and describes the problem). So a problem is never hidden; the fast path
 * only spares the schema run for the entries that are fine, which are nearly all of them.
 */

type Loose = Record<string, unknown>;

function isObject(value: unknown): value is Loose {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isNumber(value: unknown): boolean {
  return typeof value === "number" && Number.isFinite(value);
}

function isOptionalString(value: unknown): boolean {
  return value === undefined || value === null || typeof value === "string";
}

/** `z.array(z.looseObject({ type: z.string() }))`. */
function isBlocks(value: unknown): boolean {
  if (!Array.isArray(value)) return false;
  for (const block of value) if (!isObject(block) || typeof block.type !== "string") return false;
  return true;
}

/** Message content as the schemas allow it: a string, blocks, null or absent. */
function isContent(value: unknown): boolean {
  return value === undefined || value === null || typeof value === "string" || isBlocks(value);
}

function isBlocksOrNothing(value: unknown): boolean {
  return value === undefined || value === null || isBlocks(value);
}

/**
 * `z.record(z.string(), z.string().nullable())` for plain data objects; objects with another
 * prototype, symbol keys or keys the record schema treats specially are left to the schema.
 */
function isSections(value: unknown): boolean {
  if (!isObject(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return false;
  for (const key of Reflect.ownKeys(value)) {
    if (typeof key !== "string" || key === "__proto__" || key === "constructor") return false;
    const text = value[key];
    if (text !== null && typeof text !== "string") return false;
  }
  return true;
}

/** `z.array(z.looseObject({ name: z.string() }))`. */
function isNamedList(value: unknown): boolean {
  if (!Array.isArray(value)) return false;
  for (const item of value) if (!isObject(item) || typeof item.name !== "string") return false;
  return true;
}

function isMessage(message: unknown): boolean {
  if (!isObject(message) || typeof message.role !== "string") return false;
  switch (message.role) {
    case "user":
      return isContent(message.content);
    case "assistant":
    case "toolResult":
      return isBlocksOrNothing(message.content);
    case "system":
      return (
        isContent(message.content) &&
        (message.sections === undefined || isSections(message.sections)) &&
        (message.toolsAdded === undefined || isNamedList(message.toolsAdded)) &&
        (message.toolsRemoved === undefined || isNamedList(message.toolsRemoved))
      );
    case "bashExecution":
      return typeof message.command === "string" && typeof message.output === "string";
    case "custom":
      return typeof message.customType === "string" && isContent(message.content);
    default:
      return true;
  }
}

/** The fields of one entry type, the tree fields (`id`, `parentId`, `timestamp`) aside. */
function hasTypeFields(e: Loose): boolean {
  switch (e.type) {
    case "message":
      return isMessage(e.message);
    case "thinking_level_change":
      return typeof e.thinkingLevel === "string";
    case "model_change":
      return typeof e.provider === "string" && typeof e.modelId === "string";
    case "usage": {
      const usage = e.usage;
      return (
        typeof e.kind === "string" &&
        typeof e.provider === "string" &&
        typeof e.model === "string" &&
        isObject(usage) &&
        isNumber(usage.input) &&
        isNumber(usage.output) &&
        isNumber(usage.totalTokens)
      );
    }
    case "compaction":
      return (
        typeof e.summary === "string" &&
        typeof e.firstKeptEntryId === "string" &&
        isNumber(e.tokensBefore) &&
        (e.systemMessage === undefined || (isObject(e.systemMessage) && e.systemMessage.role === "system"))
      );
    case "context_edit": {
      const replacement = e.replacement;
      return (
        typeof e.targetId === "string" &&
        (replacement === null ||
          (isObject(replacement) &&
            (typeof replacement.content === "string" || isBlocks(replacement.content))))
      );
    }
    case "branch_summary":
      return typeof e.fromId === "string" && typeof e.summary === "string";
    case "custom":
      return typeof e.customType === "string";
    case "custom_message":
      return (
        typeof e.customType === "string" &&
        isContent(e.content) &&
        (e.display === undefined || typeof e.display === "boolean")
      );
    case "label":
      return typeof e.targetId === "string" && isOptionalString(e.label);
    case "session_info":
      return isOptionalString(e.name);
    default:
      return typeof e.type === "string";
  }
}

/**
 * True when `entry` certainly passes the structural schema of its type; `false` means "ask the
 * schema" (it may still be valid). Never throws, never modifies the entry.
 */
export function isWellFormedEntry(entry: unknown): boolean {
  if (!isObject(entry)) return false;
  return (
    typeof entry.id === "string" &&
    (entry.parentId === null || typeof entry.parentId === "string") &&
    typeof entry.timestamp === "string" &&
    hasTypeFields(entry)
  );
}

function isOptional(value: unknown, type: "string" | "number"): boolean {
  return value === undefined || (type === "number" ? isNumber(value) : typeof value === "string");
}

/** True when `header` certainly passes the header schema; `false` means "ask the schema". */
export function isWellFormedHeader(header: unknown): boolean {
  return (
    isObject(header) &&
    header.type === "session" &&
    typeof header.id === "string" &&
    isOptional(header.version, "number") &&
    isOptional(header.timestamp, "string") &&
    isOptional(header.cwd, "string") &&
    isOptional(header.parentSession, "string")
  );
}
