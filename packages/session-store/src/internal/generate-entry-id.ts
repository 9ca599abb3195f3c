import { nodeCrypto } from "./node-crypto";

/** Makes a candidate id. The default is 8 lowercase hex characters from a random UUID. */
export type EntryIdSource = () => string;

/** Random bytes drawn ahead, 4 per id: one `randomFillSync` serves 1024 ids. */
const pool = Buffer.alloc(4096);
let poolAt = pool.length;
/** Character codes of the lowercase hex digits. */
const HEX = new Uint8Array([48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 97, 98, 99, 100, 101, 102]);

/**
 * The default id source: 8 lowercase hex characters from the system CSPRNG (pi's format: the first 8
 * hex characters of a random UUID, which are 32 random bits too). The bytes are drawn in batches and
 * spelled out by table lookup (a `Buffer` hex decode call costs more than the rest of the id).
 */
export const randomShortId: EntryIdSource = () => {
  if (poolAt === pool.length) {
    nodeCrypto().randomFillSync(pool);
    poolAt = 0;
  }
  const a = pool[poolAt] as number;
  const b = pool[poolAt + 1] as number;
  const c = pool[poolAt + 2] as number;
  const d = pool[poolAt + 3] as number;
  poolAt += 4;
  return String.fromCharCode(
    HEX[a >> 4] as number,
    HEX[a & 15] as number,
    HEX[b >> 4] as number,
    HEX[b & 15] as number,
    HEX[c >> 4] as number,
    HEX[c & 15] as number,
    HEX[d >> 4] as number,
    HEX[d & 15] as number,
  );
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
  const { randomUUID } = nodeCrypto();
  let id = randomUUID();
  while (taken.has(id)) id = randomUUID();
  return id;
}
