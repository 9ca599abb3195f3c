import type { MutatedSession } from "./check-mutated-session";
import { MUTATION_KINDS, type Mutation, type MutationKind, mutateLine } from "./mutate-line";
import { createSeededRandom } from "./seeded-random";

/** A mutation can produce a newline byte (a flipped bit): the file then holds more lines. */
function splitAtNewlines(bytes: Buffer): Buffer[] {
  const parts: Buffer[] = [];
  let start = 0;
  for (let at = bytes.indexOf(0x0a); at >= 0; at = bytes.indexOf(0x0a, start)) {
    parts.push(bytes.subarray(start, at));
    start = at + 1;
  }
  parts.push(bytes.subarray(start));
  return parts;
}

/** A mutated session plus what was done to it. */
export interface FuzzCase extends MutatedSession {
  /** Seed of this case alone: `buildMutatedSession(base, seed)` rebuilds it. */
  seed: number;
  kinds: MutationKind[];
  /** The file lacks its final newline (its last line may also be cut short). */
  tailOpen: boolean;
}

/**
 * Mutates 1 to 3 lines of a valid session (its lines, header first; the header itself in about 3%
 * of the cases) and, in 10% of the cases, drops the final newline (in half of those the last line
 * is also cut part-way, as by a torn write). Deterministic from `seed`.
 * Lines that stay byte-equal to their original are recorded in `untouched`.
 */
export function buildMutatedSession(base: readonly string[], seed: number): FuzzCase {
  const rng = createSeededRandom(seed);
  const ids = base.slice(1).map((line) => String((JSON.parse(line) as { id?: unknown }).id));
  const headerMutated = rng.chance(0.03);
  const targets = new Set<number>(headerMutated ? [0] : []);
  for (let n = rng.between(1, 3); targets.size < n; ) targets.add(rng.between(1, base.length - 1));
  const out: Buffer[] = [];
  const untouched = new Map<number, string>();
  const kinds: MutationKind[] = [];
  base.forEach((line, i) => {
    const mutation: Mutation | undefined = targets.has(i)
      ? mutateLine(line, rng.pick(MUTATION_KINDS), { rng, ids })
      : undefined;
    if (mutation) kinds.push(mutation.kind);
    for (const bytes of mutation ? mutation.lines.flatMap(splitAtNewlines) : [Buffer.from(line)]) {
      if (bytes.equals(Buffer.from(line))) untouched.set(out.length, line);
      out.push(bytes);
    }
  });
  const tailOpen = rng.chance(0.1);
  if (tailOpen && out.length > 1 && rng.chance(0.5)) {
    // A torn write: the last line stops part-way.
    const last = out.length - 1;
    out[last] = (out[last] as Buffer).subarray(0, rng.int((out[last] as Buffer).length));
    untouched.delete(last);
  }
  const content = Buffer.concat(out.flatMap((b) => [b, Buffer.from("\n")]));
  return {
    seed,
    kinds,
    tailOpen,
    headerMutated: headerMutated && !(untouched.get(0) === base[0]),
    untouched,
    content: tailOpen ? content.subarray(0, content.length - 1) : content,
  };
}
