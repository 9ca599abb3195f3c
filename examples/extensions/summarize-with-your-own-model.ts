/**
 * Recipe 1 of the seeds: a custom compaction summary written by a model of your choice, on any
 * provider the user has configured (a built-in model, or one declared in `models.json`), with the
 * user's own key. It also shows the two decisions an author usually wants: cancel when the user asks
 * to skip, and tell the user what happened.
 *
 * Configure it in `settings.json` (the user's, or a trusted project's):
 *
 * ```json
 * {
 *   "extensions": ["path/to/summarize-with-your-own-model.ts"],
 *   "ownModelCompaction": { "model": "openai/gpt-4.1-mini" }
 * }
 * ```
 *
 * `model` is `provider/id` or an id (the first model with that id). The file imports types only, so it
 * loads from any folder: everything it calls comes through `api`.
 */
import type { ExtensionDefinition } from "@arbor/extensions";
import type { Model } from "@arbor/providers";
import type { RuntimeExtensionApi } from "@arbor/runtime";

/** Splits `provider/id` (or a bare id) into the registry's lookup arguments. */
export function parseModelRef(ref: string): { provider: string | undefined; id: string } {
  const slash = ref.indexOf("/");
  return slash > 0 ? { provider: ref.slice(0, slash), id: ref.slice(slash + 1) } : { provider: undefined, id: ref };
}

/** Reads `settings.ownModelCompaction.model`; throws naming the key when it is missing or not a string. */
export function readOwnModelRef(settings: Readonly<Record<string, unknown>>): string {
  const config = settings.ownModelCompaction as { model?: unknown } | undefined;
  if (typeof config?.model !== "string" || config.model.length === 0) {
    throw new Error('settings.ownModelCompaction.model must be a model such as "openai/gpt-4.1-mini"');
  }
  return config.model;
}

const summarizeWithYourOwnModel: ExtensionDefinition<RuntimeExtensionApi> = {
  apiVersion: 1,
  name: "summarize-with-your-own-model",
  setup(api) {
    const ref = parseModelRef(readOwnModelRef(api.settings));
    api.on(
      "session_before_compact",
      async (event, context) => {
        // `arbor compact --instructions "skip"` or `/compact skip`: no compaction this time.
        if (/\bskip\b/i.test(event.customInstructions ?? "")) {
          api.ui.notify("compaction skipped, as the instructions asked");
          return { cancel: true };
        }
        const model: Model | undefined = api.models.find(ref.provider, ref.id);
        if (model === undefined) throw new Error(`model ${ref.provider ?? "?"}/${ref.id} is not configured`);
        // Throws MODEL_UNAVAILABLE (naming the key to set) when the user has no key for it: the
        // session then reports a hook_error and writes its default summary.
        const provider = await api.models.providerFor(model);
        // The default pipeline with another model: the history and a split turn's prefix, the
        // previous summary updated, the file lists appended. `context.signal` aborts on the
        // compaction's abort and on this handler's timeout.
        const result = await api.compaction.compact(event.preparation, {
          provider,
          model,
          customInstructions: event.customInstructions,
          signal: context.signal,
        });
        api.ui.notify(`summarized with ${model.provider}/${model.id}`);
        return {
          compaction: {
            summary: result.summary,
            firstKeptEntryId: result.firstKeptEntryId,
            tokensBefore: result.tokensBefore,
            details: { ...result.details, summarizedBy: `${model.provider}/${model.id}` },
            usage: result.usage,
          },
        };
      },
      { timeoutMs: 120_000 },
    );
  },
};

export default summarizeWithYourOwnModel;
