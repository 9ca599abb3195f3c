/** A summary call's cost and where it happened: the number of session entries written before it. */
export interface PlacedSummaryCost {
  /** Position of the summary's compaction entry in the session (0-based, in write order). */
  entryIndex: number;
  costUsd: number;
}

/** One request as the curve needs it. */
export interface CostSeriesRequest {
  contextTokens: number;
  costUsd: number;
  /** Entries the session held when the request was sent. */
  entriesBefore: number;
}

/** One point of the curve: a request's context and everything paid up to and including it. */
export interface CostSeriesPoint {
  contextTokens: number;
  cumulativeCostUsd: number;
}

/**
 * The replay's curve, one point per request: its context size and the cumulative cost of every
 * request and every summary call made up to it. A summary counts from the first request sent after
 * its compaction entry was written (`entryIndex < entriesBefore`); one written after the last
 * request counts in the last point, so the last point always equals the total cost. Pure.
 */
export function buildCostSeries(
  requests: readonly CostSeriesRequest[],
  summaries: readonly PlacedSummaryCost[],
): CostSeriesPoint[] {
  const pending = [...summaries].sort((a, b) => a.entryIndex - b.entryIndex);
  let next = 0;
  let cumulative = 0;
  const points = requests.map((request) => {
    while (next < pending.length && (pending[next] as PlacedSummaryCost).entryIndex < request.entriesBefore) {
      cumulative += (pending[next] as PlacedSummaryCost).costUsd;
      next++;
    }
    cumulative += request.costUsd;
    return { contextTokens: request.contextTokens, cumulativeCostUsd: cumulative };
  });
  const last = points.at(-1);
  if (last !== undefined) {
    for (; next < pending.length; next++)
      last.cumulativeCostUsd += (pending[next] as PlacedSummaryCost).costUsd;
  }
  return points;
}
