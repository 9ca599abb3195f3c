import type { Usage, UsageCost } from "../message";
import type { Model } from "./model";

/**
 * Prices a usage record with the model's per-million rates (`model.cost`). `cacheWrite1h`, the part
 * of `cacheWrite` written with a one-hour lifetime, is billed at twice the input rate as Anthropic
 * does; the rest of `cacheWrite` at `cost.cacheWrite`. Pure; returns a new object; never throws.
 */
export function calculateCost(model: Pick<Model, "cost">, usage: Usage): UsageCost {
  const perToken = (tokens: number, pricePerMillion: number) => (tokens * pricePerMillion) / 1_000_000;
  const oneHourWrites = Math.min(usage.cacheWrite1h ?? 0, usage.cacheWrite);
  const input = perToken(usage.input, model.cost.input);
  const output = perToken(usage.output, model.cost.output);
  const cacheRead = perToken(usage.cacheRead, model.cost.cacheRead);
  const cacheWrite =
    perToken(usage.cacheWrite - oneHourWrites, model.cost.cacheWrite) +
    perToken(oneHourWrites, model.cost.input * 2);
  return { input, output, cacheRead, cacheWrite, total: input + output + cacheRead + cacheWrite };
}
