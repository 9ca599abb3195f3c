import { EXTENSION_API_VERSION, type ExtensionDefinition } from "@arbor/extensions";
import type { RuntimeExtensionApi } from "../extensions/runtime-extension-api";
import { applyContextEdits } from "./apply-context-edits";
import {
  type ContextPolicyName,
  type ContextPolicySettings,
  type ResolvedContextPolicySettings,
  resolveContextPolicySettings,
} from "./context-policy-settings";
import { type MaskEdit, planMaskEdits } from "./plan-mask-edits";

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
  const edits = planMaskEdits(api.session.view.getProjection(), {
    countTokens: api.compaction.estimateTokens,
    minToolResultTokens: options.minToolResultTokens,
    protectRecentTokens: Math.min(options.protectRecentTokens, 0.25 * usage.threshold),
    wantedSavingTokens: Number.POSITIVE_INFINITY,
    maskToolArguments: options.name === "cache-aware",
  });
  if (edits.length === 0) return;
  if (options.name === "cache-aware" && !worthRewriting(usage.tokens, edits, options.horizonRequests)) return;
  await applyContextEdits(api, edits);
}

/**
 * The cache-aware rule: an edit far back makes the provider write the whole prompt again (Anthropic
 * looks for an earlier cache entry only 20 blocks back), so the next request pays the write premium
 * on everything that remains, once; the saving is read `horizonRequests` times at the cache-read
 * price. True when the saving is worth more.
 */
export function worthRewriting(
  contextTokens: number,
  edits: readonly MaskEdit[],
  horizonRequests: number,
): boolean {
  const saving = edits.reduce((sum, edit) => sum + edit.savedTokens, 0);
  const rewritten = Math.max(0, contextTokens - saving);
  return saving * horizonRequests * CACHE_READ_RATIO > rewritten * (CACHE_WRITE_RATIO - CACHE_READ_RATIO);
}

/**
 * The extension of a context policy (see {@link ContextPolicySettings}):
 * - `pi`: registers nothing (the session's threshold summaries are the whole policy);
 * - `mask`: after every turn whose context passed `triggerFraction` of the compaction threshold,
 *   replaces every tool output of `minToolResultTokens` or more outside the newest
 *   `protectRecentTokens` by a one-line placeholder (a context edit: the output stays in the
 *   session file); summaries still happen at the threshold when masking was not enough;
 * - `cache-aware`: like `mask`, plus the large string arguments of old tool calls (an `edit`'s texts,
 *   a `write`'s content; `path`, `file_path` and `command` stay), but waits until the masks it would write are worth the prompt-cache
 *   rewrite they cause ({@link worthRewriting}), then writes them in one batch, so the cached prefix
 *   changes rarely.
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
