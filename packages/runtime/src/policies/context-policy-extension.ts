import { EXTENSION_API_VERSION, type ExtensionDefinition } from "@arbor/extensions";
import type { RuntimeExtensionApi } from "../extensions/runtime-extension-api";
import { applyContextEdits } from "./apply-context-edits";
import {
  type ContextPolicyName,
  type ContextPolicySettings,
  type ResolvedContextPolicySettings,
  resolveContextPolicySettings,
} from "./context-policy-settings";
import { planMaskEdits, tokensFromFirstEdit } from "./plan-mask-edits";

/** Prompt-cache price ratios (to the input price) the cache-aware policy weighs: Anthropic's. */
const CACHE_READ_RATIO = 0.1;
const CACHE_WRITE_RATIO = 1.25;

/** Masks old tool outputs after a turn, when the context passed the policy's trigger. */
async function maskAfterTurn(
  api: RuntimeExtensionApi,
  options: ResolvedContextPolicySettings,
): Promise<void> {
  const usage = api.session.getContextUsage();
  if (usage === undefined || usage.tokens === null) return;
  if (usage.tokens < options.triggerFraction * usage.threshold) return;
  const projection = api.session.view.getProjection();
  const countTokens = api.compaction.estimateTokens;
  const batch = options.name === "cache-aware";
  const wanted = batch ? usage.tokens - options.targetFraction * usage.threshold : Number.POSITIVE_INFINITY;
  const edits = planMaskEdits(projection, {
    countTokens,
    minToolResultTokens: options.minToolResultTokens,
    protectRecentTokens: Math.min(options.protectRecentTokens, 0.25 * usage.threshold),
    wantedSavingTokens: wanted,
  });
  if (edits.length === 0) return;
  if (batch) {
    const saving = edits.reduce((sum, edit) => sum + edit.savedTokens, 0);
    const rewritten = tokensFromFirstEdit(projection, edits, countTokens) - saving;
    const benefit = saving * options.horizonRequests * CACHE_READ_RATIO;
    const cost = rewritten * (CACHE_WRITE_RATIO - CACHE_READ_RATIO);
    if (benefit < cost) return;
  }
  await applyContextEdits(api, edits);
}

/**
 * The extension of a context policy (see {@link ContextPolicySettings}):
 * - `pi`: registers nothing (the session's threshold summaries are the whole policy);
 * - `mask`: after every turn whose context passed `triggerFraction` of the compaction threshold,
 *   replaces every tool output of `minToolResultTokens` or more outside the newest
 *   `protectRecentTokens` by a one-line placeholder (a context edit: the output stays in the
 *   session file); summaries still happen at the threshold when masking was not enough;
 * - `cache-aware`: like `mask`, but masks in batches, down to `targetFraction` of the threshold, and
 *   only when the saving over `horizonRequests` requests at the cache-read price outweighs writing
 *   the cached suffix again, so the cached prefix changes rarely.
 *
 * Built on the public extension API only (`turn_end`, `api.session`), as a third-party extension
 * could be. `createAgentSession` installs it first when `settings.contextPolicy` names one.
 */
export function contextPolicyExtension(
  setting: ContextPolicySettings | ContextPolicyName,
): ExtensionDefinition<RuntimeExtensionApi> {
  const options = resolveContextPolicySettings(setting);
  return {
    apiVersion: EXTENSION_API_VERSION,
    name: `context-policy:${options.name}`,
    setup(api) {
      if (options.name === "pi") return;
      api.on("turn_end", () => maskAfterTurn(api, options));
    },
  };
}
