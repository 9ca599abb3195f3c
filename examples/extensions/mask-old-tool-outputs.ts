/**
 * Example extension: the cheap tier of context management. After every turn, once the context is
 * filling up, old large tool outputs are replaced by a one-line placeholder with a context edit.
 * The session file keeps the full output (context edits change what the model sees, not the
 * history), and an LLM summary is needed much later, or never.
 *
 * Configure it in `settings.json` (every field optional):
 *
 * ```json
 * {
 *   "extensions": ["path/to/mask-old-tool-outputs.ts"],
 *   "maskToolOutputs": { "startRatio": 0.5, "keepRecent": 2, "minChars": 2000 }
 * }
 * ```
 *
 * - `startRatio`: start masking once the context passes this fraction of the compaction threshold
 *   (`contextWindow - reserveTokens`). Default 0.5.
 * - `keepRecent`: the newest tool outputs always stay intact. Default 2.
 * - `minChars`: outputs shorter than this are left alone. Default 2000.
 *
 * It is a `turn_end` boundary handler (pi 1.6.0's hook): it reads the boundary's preview of the next
 * request (`event.context`: the projected entries and messages, with the drafts of earlier handlers
 * applied) and returns `context_edit` drafts, which the session checks and appends before the next
 * turn and before it checks the compaction threshold, so the check already sees the smaller context.
 * It never writes to the session itself. Imports types only (see cheap-model-compaction.ts).
 */
import type { ExtensionDefinition } from "@arbor/extensions";
import type { RuntimeExtensionApi } from "@arbor/runtime";

/** The `maskToolOutputs` settings object, with defaults applied. */
export interface MaskToolOutputsConfig {
  startRatio: number;
  keepRecent: number;
  minChars: number;
}

/** Every placeholder starts with this, so masked outputs are recognised and never masked twice. */
export const MASK_PREFIX = "[tool output masked";

/** Reads `settings.maskToolOutputs`; throws naming the key at fault. */
export function readMaskConfig(settings: Readonly<Record<string, unknown>>): MaskToolOutputsConfig {
  const raw = (settings.maskToolOutputs ?? {}) as Record<string, unknown>;
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    throw new Error("settings.maskToolOutputs must be an object");
  }
  const config: MaskToolOutputsConfig = { startRatio: 0.5, keepRecent: 2, minChars: 2000 };
  if (raw.startRatio !== undefined) {
    if (typeof raw.startRatio !== "number" || !(raw.startRatio > 0 && raw.startRatio <= 1)) {
      throw new Error("settings.maskToolOutputs.startRatio must be a number in (0, 1]");
    }
    config.startRatio = raw.startRatio;
  }
  for (const key of ["keepRecent", "minChars"] as const) {
    const value = raw[key];
    if (value === undefined) continue;
    if (typeof value !== "number" || !Number.isInteger(value) || value < 0) {
      throw new Error(`settings.maskToolOutputs.${key} must be a non-negative integer`);
    }
    config[key] = value;
  }
  return config;
}

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.map((block) => (block?.type === "text" ? String(block.text) : "")).join("");
}

const maskOldToolOutputs: ExtensionDefinition<RuntimeExtensionApi> = {
  apiVersion: 1,
  name: "mask-old-tool-outputs",
  setup(api) {
    const config = readMaskConfig(api.settings);
    api.on("turn_end", (event) => {
      const { contextEntries, contextMessages } = event.context;
      const threshold = api.session.getModel().contextWindow - api.session.getCompactionSettings().reserveTokens;
      const tokens = contextMessages.reduce((sum, message) => sum + api.compaction.estimateTokens(message), 0);
      if (tokens < threshold * config.startRatio) return undefined;
      const candidates: Array<{ id: string; toolName: string; chars: number }> = [];
      for (const { sourceEntry, messages } of contextEntries) {
        const message = messages[0];
        if (sourceEntry.type !== "message" || messages.length !== 1 || message?.role !== "toolResult") continue;
        const text = textOf(message.content);
        if (text.startsWith(MASK_PREFIX) || text.length < config.minChars) continue;
        candidates.push({ id: sourceEntry.id, toolName: message.toolName, chars: text.length });
      }
      const masked = candidates.slice(0, Math.max(0, candidates.length - config.keepRecent));
      if (masked.length === 0) return undefined;
      const drafts = masked.map(({ id, toolName, chars }) => ({
        type: "context_edit" as const,
        targetId: id,
        replacement: {
          content: `${MASK_PREFIX}: ${chars} characters of ${toolName} output were removed from the context to save space; the session file still has them. Call the tool again if you need the output.]`,
        },
      }));
      return { entries: [...event.entries, ...drafts] };
    });
  },
};

export default maskOldToolOutputs;
