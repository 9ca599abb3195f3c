/**
 * The candidate closest to `name` by edit distance (Levenshtein, case-insensitive, `-` and `_`
 * counted as the same character so a kebab-case spelling finds its snake_case name). Ties go to the
 * earlier candidate. `undefined` when there are no candidates.
 */
export function closestName(name: string, candidates: Iterable<string>): string | undefined {
  const wanted = normalize(name);
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    const distance = editDistance(wanted, normalize(candidate));
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

function normalize(name: string): string {
  return name.toLowerCase().replaceAll("-", "_");
}

/** Levenshtein distance with two rows. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min((previous[j] as number) + 1, (current[j - 1] as number) + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length] as number;
}
