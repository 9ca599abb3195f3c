import { formatCost, formatTokens } from "../format/format-number";

/** What the status line shows. */
export interface StatusLineInput {
  /** `provider/model`. */
  model: string;
  thinkingLevel?: string;
  /** Context tokens (`null` right after a compaction, until the next response reports usage). */
  tokens: number | null;
  contextWindow: number | undefined;
  /** Session cost in US dollars. */
  cost: number;
  /** Session name or the first characters of its id. */
  session: string;
}

/**
 * One line: `model · context 12.3k/200k (6%) · $0.0123 · session`. After a compaction the token
 * count is unknown until the next response: shown as `?`.
 */
export function formatStatusLine(input: StatusLineInput): string {
  const window = input.contextWindow ? formatTokens(input.contextWindow) : "?";
  const context =
    input.tokens === null
      ? `context ?/${window} (compacted)`
      : `context ${formatTokens(input.tokens)}/${window}${input.contextWindow ? ` (${Math.round((input.tokens / input.contextWindow) * 100)}%)` : ""}`;
  const model =
    input.thinkingLevel && input.thinkingLevel !== "off"
      ? `${input.model} (${input.thinkingLevel})`
      : input.model;
  return [model, context, formatCost(input.cost), input.session].join(" · ");
}
