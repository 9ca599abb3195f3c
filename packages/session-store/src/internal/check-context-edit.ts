import type { ContextEditReplacement } from "../session-entry";
import { SessionStoreError } from "../session-store-error";
import type { EntryTable } from "./entry-table";
import { isOnPath } from "./lazy-path";

const EDITABLE_ROLES = new Set(["user", "assistant", "toolResult"]);

/**
 * Applies pi's write-time rules for a context edit, in pi's order, and returns the replacement to
 * store (a string for an assistant/toolResult target becomes one text block):
 * 1. `replacement` is `null` or has string/array `content`;
 * 2. the target exists;
 * 3. the target is on the path from the root to `leaf`;
 * 4. the target is a `custom_message` or a user/assistant/toolResult message.
 *
 * @throws SessionStoreError `CONTEXT_EDIT_INVALID` (with `reason`) or `ENTRY_NOT_FOUND`.
 */
export function checkContextEdit(
  table: EntryTable,
  leaf: number,
  targetId: string,
  replacement: ContextEditReplacement | null,
  sessionFile: string | undefined,
): ContextEditReplacement | null {
  const where = { sessionFile, entryId: targetId };
  const content = (replacement as { content?: unknown } | null)?.content;
  if (
    replacement !== null &&
    (typeof replacement !== "object" ||
      !("content" in replacement) ||
      (typeof content !== "string" && !Array.isArray(content)))
  ) {
    throw new SessionStoreError(
      "CONTEXT_EDIT_INVALID",
      "Context edit replacement must be null or have string or array content",
      {
        ...where,
        reason: "replacement-invalid",
      },
    );
  }
  const target = table.indexOf(targetId);
  if (target === undefined)
    throw new SessionStoreError("ENTRY_NOT_FOUND", `Entry ${targetId} not found`, where);
  if (!isOnPath(table, leaf, target)) {
    throw new SessionStoreError("CONTEXT_EDIT_INVALID", `Entry ${targetId} is not on the active branch`, {
      ...where,
      reason: "target-not-on-branch",
    });
  }
  const type = table.typeOf(target);
  const role = type === "message" ? table.roleOf(target) : undefined;
  const editable = type === "custom_message" || (typeof role === "string" && EDITABLE_ROLES.has(role));
  if (!editable) {
    throw new SessionStoreError(
      "CONTEXT_EDIT_INVALID",
      `Entry ${targetId} does not contribute editable model content`,
      {
        ...where,
        reason: "target-not-editable",
      },
    );
  }
  if (
    replacement !== null &&
    (role === "assistant" || role === "toolResult") &&
    typeof replacement.content === "string"
  ) {
    return { content: [{ type: "text", text: replacement.content }] };
  }
  return replacement;
}
