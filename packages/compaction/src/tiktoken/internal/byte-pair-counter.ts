/**
 * Counts the tokens of one piece of text (a match of the encoding's pattern) by byte-pair merges,
 * for one rank table (`bpe_ranks` of a js-tiktoken rank file: lines of `<label> <first rank> <token in
 * base64>...`). See {@link createBytePairCounter}.
 */
export type BytePairCounter = (piece: string) => number;

/**
 * Reads a rank table and returns a counter of a piece's tokens. A piece is UTF-8 encoded (a lone
 * surrogate as U+FFFD) and counted as a BPE tokenizer encodes it: a piece that is itself a token is
 * one; otherwise, starting from single bytes, the adjacent pair whose bytes form the token of lowest
 * rank is merged (the leftmost of equal ranks), until no pair forms a token. That is the same count as
 * js-tiktoken's encoder, but the merges take a heap instead of a scan of every pair at every step:
 * O(n log n) for a piece of n bytes instead of O(n²) (a hostile 16,000-letter run took js-tiktoken
 * 27 s). Tokens are looked up by their base64 text, as the table writes them (read in ~0.2 s for
 * o200k_base, without decoding them).
 */
export function createBytePairCounter(bpeRanks: string): BytePairCounter {
  const ranks = readRanks(bpeRanks);
  return (piece: string): number => {
    const bytes = Buffer.from(piece, "utf8");
    const size = bytes.length;
    // A piece that is a token is one, without merging: only a shortcut, since every token of
    // o200k_base and cl100k_base is also what the merges of its bytes end in (checked once, all of them).
    if (size <= 1 || ranks.has(bytes.toString("base64"))) return Math.min(size, 1);
    return countMerged(bytes, ranks);
  };
}

/** The table as a map from a token's base64 text to its rank. */
function readRanks(bpeRanks: string): Map<string, number> {
  const ranks = new Map<string, number>();
  let at = 0;
  while (at < bpeRanks.length) {
    let end = bpeRanks.indexOf("\n", at);
    if (end < 0) end = bpeRanks.length;
    const fields = bpeRanks.slice(at, end).split(" ");
    at = end + 1;
    if (fields.length < 3) continue;
    const first = Number.parseInt(fields[1] as string, 10);
    for (let index = 2; index < fields.length; index++) ranks.set(fields[index] as string, first + index - 2);
  }
  return ranks;
}

/**
 * The number of parts left once every possible merge is done. Parts are named by their first byte:
 * `endOf[start]` is a live part's end (-1 once merged into the part before it), `prevOf[start]` the
 * start of the part before. The heap holds candidate pairs (rank, left start, right start, right end);
 * a candidate is stale when either part changed since it was pushed.
 */
function countMerged(bytes: Buffer, ranks: Map<string, number>): number {
  const size = bytes.length;
  const endOf = new Int32Array(size);
  const prevOf = new Int32Array(size);
  for (let start = 0; start < size; start++) {
    endOf[start] = start + 1;
    prevOf[start] = start - 1;
  }
  const heap = new PairHeap();
  const offer = (left: number, right: number, end: number) => {
    const rank = ranks.get(bytes.toString("base64", left, end));
    if (rank !== undefined) heap.push(rank, left, right, end);
  };
  for (let start = 0; start + 1 < size; start++) offer(start, start + 1, start + 2);
  let parts = size;
  while (heap.size > 0) {
    const { left, right, end } = heap.pop();
    if (endOf[left] !== right || endOf[right] !== end) continue;
    endOf[left] = end;
    endOf[right] = -1;
    if (end < size) prevOf[end] = left;
    parts--;
    const before = prevOf[left] as number;
    if (before >= 0) offer(before, left, end);
    if (end < size) offer(left, end, endOf[end] as number);
  }
  return parts;
}

/** True when candidate (rank, left) comes before (otherRank, otherLeft). */
function precedes(rank: number, left: number, otherRank: number, otherLeft: number): boolean {
  return rank < otherRank || (rank === otherRank && left < otherLeft);
}

/** A binary min-heap of merge candidates, ordered by rank, then by the left part's start. */
class PairHeap {
  private readonly ranks: number[] = [];
  private readonly lefts: number[] = [];
  private readonly rights: number[] = [];
  private readonly ends: number[] = [];
  size = 0;

  push(rank: number, left: number, right: number, end: number): void {
    let at = this.size++;
    while (at > 0) {
      const parent = (at - 1) >> 1;
      if (!precedes(rank, left, this.ranks[parent] as number, this.lefts[parent] as number)) break;
      this.move(parent, at);
      at = parent;
    }
    this.put(at, rank, left, right, end);
  }

  /** Removes and returns the first candidate (the heap must not be empty). */
  pop(): { left: number; right: number; end: number } {
    const top = {
      left: this.lefts[0] as number,
      right: this.rights[0] as number,
      end: this.ends[0] as number,
    };
    const last = --this.size;
    const rank = this.ranks[last] as number;
    const left = this.lefts[last] as number;
    let at = 0;
    for (;;) {
      let child = 2 * at + 1;
      if (child >= last) break;
      const other = child + 1;
      if (
        other < last &&
        precedes(
          this.ranks[other] as number,
          this.lefts[other] as number,
          this.ranks[child] as number,
          this.lefts[child] as number,
        )
      ) {
        child = other;
      }
      if (!precedes(this.ranks[child] as number, this.lefts[child] as number, rank, left)) break;
      this.move(child, at);
      at = child;
    }
    if (last > 0) this.move(last, at);
    return top;
  }

  private move(from: number, to: number): void {
    this.put(
      to,
      this.ranks[from] as number,
      this.lefts[from] as number,
      this.rights[from] as number,
      this.ends[from] as number,
    );
  }

  private put(at: number, rank: number, left: number, right: number, end: number): void {
    this.ranks[at] = rank;
    this.lefts[at] = left;
    this.rights[at] = right;
    this.ends[at] = end;
  }
}
