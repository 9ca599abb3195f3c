/**
 * A session's model as `provider/id` for display, or `undefined` when none is recorded. An assistant
 * message without `provider` and `model` (the entry schema allows it) gives a projection model whose
 * two fields are missing: that is no model either. A single missing half shows as `?`.
 */
export function describeModel(
  model: { provider?: string; modelId?: string } | null | undefined,
): string | undefined {
  if (!model || (typeof model.provider !== "string" && typeof model.modelId !== "string")) return undefined;
  return `${model.provider ?? "?"}/${model.modelId ?? "?"}`;
}
