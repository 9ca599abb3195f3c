import type { EntryIdSource } from "./generate-entry-id";
import { nodeCrypto } from "./node-crypto";

/**
 * An id source whose n-th candidate is a pure function of `seed` and n: the first 8 hex characters of
 * SHA-256(`seed`, n). Used to give the entries of a version-1 file (which have no ids) the same ids
 * on every open, so an id printed by one read-only command works in the next; candidates that collide
 * are skipped by `generateEntryId` as usual, which stays deterministic because the sequence is.
 */
export function createPositionIdSource(seed: string): EntryIdSource {
  const crypto = nodeCrypto();
  let position = 0;
  // The one-shot `hash` (Node 20.12+; the package needs 20.19) makes no Hash object per id.
  return () => crypto.hash("sha256", `${seed}\n${position++}`, "hex").slice(0, 8);
}
