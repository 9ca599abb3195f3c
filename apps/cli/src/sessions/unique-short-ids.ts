import { SHORT_SESSION_ID_LENGTH } from "./short-session-id";

/**
 * Short ids for a list of session ids, in the same order: each one's last 8 hex digits (see
 * `shortSessionId`), or more of its end when another id in the list ends the same way, so that every
 * short id in a listing names one session. Identical ids get their whole id. Pure.
 */
export function uniqueShortIds(ids: readonly string[]): string[] {
  const compact = ids.map((id) => id.replace(/-/g, "").toLowerCase());
  return compact.map((id, index) => {
    let length = SHORT_SESSION_ID_LENGTH;
    while (
      length < id.length &&
      compact.some((other, otherIndex) => otherIndex !== index && other.endsWith(id.slice(-length)))
    ) {
      length++;
    }
    return id.slice(-length);
  });
}
