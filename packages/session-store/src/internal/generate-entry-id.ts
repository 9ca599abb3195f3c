import { randomUUID } from "node:crypto";

/** Makes a candidate id. The default is 8 lowercase hex characters from a random UUID. */
export type EntryIdSource = () => string;

/** The default id source: the first 8 hex characters of a random UUID (pi's format). */
export const randomShortId: EntryIdSource = () => randomUUID().slice(0, 8);

const MAX_ATTEMPTS = 100;

/**
 * Returns an id not present in `taken`: up to 100 candidates from `source`, then a full random UUID
 * (which cannot realistically collide). Does not add the id to `taken`.
 */
export function generateEntryId(
  taken: { has(id: string): boolean },
  source: EntryIdSource = randomShortId,
): string {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const id = source();
    if (!taken.has(id)) return id;
  }
  let id = randomUUID();
  while (taken.has(id)) id = randomUUID();
  return id;
}
