/** Counts the tokens of a text; see {@link createPieceTokenCounter}. */
export type PieceTokenCounter = (text: string) => number;

/** Bounds of a {@link createPieceTokenCounter}'s memo. */
export interface PieceMemoLimits {
  /** Pieces longer than this are counted but not remembered (long runs of spaces, hashes). Default 48. */
  maxPieceLength: number;
  /** At most this many pieces are remembered; when full, the memo starts again empty. Default 100,000. */
  maxPieces: number;
}

const DEFAULT_LIMITS: PieceMemoLimits = { maxPieceLength: 48, maxPieces: 100_000 };

/**
 * A token counter for a BPE encoding: splits the text with the encoding's pattern (`patternSource`, the
 * rank file's `pat_str`) as the tokenizer does, counts each piece with `countPiece`, and sums. Words,
 * indentation and punctuation recur, so each distinct piece is counted once and its count remembered.
 * With `countPiece(piece)` equal to the tokens of `piece` encoded alone, the sum is what the encoder
 * gives for the whole text: a piece encoded alone splits into itself again (the pattern's alternatives
 * have no look-behind, and its one look-ahead, `\s+(?!\S)`, also holds at the end of the piece).
 * Special-token strings count as plain text (js-tiktoken's `encode(text, [], [])`).
 *
 * The memo is bounded by `limits`. Never throws for a string.
 */
export function createPieceTokenCounter(
  countPiece: (piece: string) => number,
  patternSource: string,
  limits: PieceMemoLimits = DEFAULT_LIMITS,
): PieceTokenCounter {
  const pattern = new RegExp(patternSource, "gu");
  let counts = new Map<string, number>();
  return (text: string): number => {
    let total = 0;
    pattern.lastIndex = 0;
    for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
      const piece = match[0];
      if (piece.length === 0) {
        // The shipped patterns never match nothing; step over it rather than loop if one does.
        pattern.lastIndex++;
        continue;
      }
      let count = counts.get(piece);
      if (count === undefined) {
        count = countPiece(piece);
        if (piece.length <= limits.maxPieceLength) {
          if (counts.size >= limits.maxPieces) counts = new Map();
          counts.set(piece, count);
        }
      }
      total += count;
    }
    return total;
  };
}
