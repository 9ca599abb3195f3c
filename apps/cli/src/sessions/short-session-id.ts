/** How many characters a short session id has (more only when two listed sessions share them). */
export const SHORT_SESSION_ID_LENGTH = 8;

/**
 * The short form of a session id: its last 8 hex digits (dashes removed), lower case. A UUIDv7
 * starts with its timestamp, so sessions started within a minute share their first characters; its
 * end is random, so the last 8 differ (`019ce1a2-5f3b-7c41-9a2e-3d8f0b6c4e17` → `0b6c4e17`). Ids of
 * other forms are shortened the same way. Pure.
 */
export function shortSessionId(id: string): string {
  const compact = id.replace(/-/g, "").toLowerCase();
  return compact.slice(-SHORT_SESSION_ID_LENGTH);
}
