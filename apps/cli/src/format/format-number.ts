/**
 * `12345` → `12,345` (rounded; the same text as `toLocaleString("en-US")` for finite numbers, without
 * loading the locale data, which costs a one-off ~60 ms on the first call).
 */
export function formatInteger(value: number): string {
  const rounded = Math.round(value);
  if (!Number.isSafeInteger(rounded)) return rounded.toLocaleString("en-US");
  return String(rounded).replace(/\B(?=(\d{3})+$)/g, ",");
}

/** Compact token counts for status lines: `950`, `12.3k`, `1.2M`. */
export function formatTokens(value: number): string {
  if (value < 1000) return String(Math.round(value));
  if (value < 1_000_000) return `${(value / 1000).toFixed(value < 10_000 ? 1 : 0)}k`;
  return `${(value / 1_000_000).toFixed(1)}M`;
}

/** US dollars with enough precision for small amounts: `$0.0123`, `$1.50`. */
export function formatCost(value: number): string {
  return value >= 1 ? `$${value.toFixed(2)}` : `$${value.toFixed(4)}`;
}
