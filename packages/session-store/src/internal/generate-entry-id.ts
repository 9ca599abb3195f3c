import { randomFillSync, randomUUID } from "node:crypto";

/** Makes a candidate id. The default is 8 lowercase hex characters from a random UUID. */
export type EntryIdSource = () => string;

/** Random bytes drawn ahead, 4 per id: one `randomFillSync` serves 1024 ids. */
const pool = Buffer.alloc(4096);
let poolAt = pool.length;

/**
 * The default id source: 8 lowercase hex characters from the system CSPRNG (pi's format: the first 8
 * hex characters of a random UUID, which are 32 random bits too). The bytes are drawn in batches.
 */
export const randomShortId: EntryIdSource = () => {
  if (poolAt === pool.length) {
    randomFillSync(pool);
    poolAt = 0;
  }
  poolAt += 4;
  return pool.toString("hex", poolAt - 4, poolAt);
};

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
