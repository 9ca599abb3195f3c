import { type AgentMessage, convertToLlm } from "@arbor/agent-loop";
import { estimateProjectedContextTokens } from "@arbor/compaction";
import { copyPlainData } from "@arbor/extensions";
import type { SessionStore } from "@arbor/session-store";
import type {
  AgentActivityOutcome,
  BoundaryContextPreview,
  SessionBoundaryDraft,
} from "../events/boundary-events";
import type { SessionCore } from "../internal/session-core";

/**
 * Appends `drafts` to `store` in order, as a boundary does. A compaction draft gets `fromHook: true`
 * and a `tokensBefore` estimated from the projection just before it. Checks each draft's shape first.
 *
 * @throws Error naming the draft (its index and type) and what is wrong: a bad shape, or the store's
 * own refusal (`CONTEXT_EDIT_INVALID`, `ENTRY_NOT_FOUND`, ...). Drafts before it stay appended.
 */
export function appendBoundaryDrafts(core: SessionCore, store: SessionStore, drafts: unknown): void {
  if (!Array.isArray(drafts)) throw new Error("entries must be an array of drafts");
  for (const [index, draft] of drafts.entries()) {
    const kind = (draft as { type?: unknown } | null)?.type;
    try {
      appendDraft(core, store, draft as SessionBoundaryDraft);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new Error(`entries[${index}] (${typeof kind === "string" ? kind : "no type"}): ${reason}`);
    }
  }
}

function appendDraft(core: SessionCore, store: SessionStore, draft: SessionBoundaryDraft): void {
  if (typeof draft !== "object" || draft === null) throw new Error("a draft must be an object");
  switch (draft.type) {
    case "custom":
      requireText(draft.customType, "customType");
      store.appendCustomEntry(draft.customType, draft.data);
      return;
    case "custom_message":
      requireText(draft.customType, "customType");
      if (typeof draft.display !== "boolean") throw new Error("display must be a boolean");
      if (typeof draft.content !== "string" && !isContentList(draft.content)) {
        throw new Error("content must be a string or an array of text and image blocks");
      }
      store.appendCustomMessageEntry({
        customType: draft.customType,
        content: draft.content,
        display: draft.display,
        ...(draft.details === undefined ? {} : { details: draft.details }),
      });
      return;
    case "context_edit":
      requireText(draft.targetId, "targetId");
      if (draft.replacement === undefined) throw new Error("replacement must be an object or null");
      store.appendContextEdit(draft.targetId, draft.replacement);
      return;
    case "compaction": {
      if (typeof draft.summary !== "string") throw new Error("summary must be a string");
      const kept = draft.firstKeptEntryId;
      if (
        kept !== null &&
        (typeof kept !== "string" || !store.getBranch().some((entry) => entry.id === kept))
      ) {
        throw new Error(`firstKeptEntryId ${JSON.stringify(kept)} is not an entry of the current branch`);
      }
      const tokensBefore = estimateProjectedContextTokens(store.getProjection(), store.getBranch(), {
        tokenCounter: core.tokenCounter,
      }).tokens;
      store.appendCompaction({
        summary: draft.summary,
        firstKeptEntryId: kept,
        tokensBefore,
        details: draft.details,
        usage: draft.usage,
        fromHook: true,
      });
      return;
    }
    default:
      throw new Error(
        `unknown draft type ${JSON.stringify((draft as { type?: unknown }).type)} (expected custom, custom_message, context_edit or compaction)`,
      );
  }
}

function requireText(value: unknown, name: string): void {
  if (typeof value !== "string" || value.length === 0) throw new Error(`${name} must be a non-empty string`);
}

function isContentList(value: unknown): boolean {
  return (
    Array.isArray(value) &&
    value.every(
      (block) =>
        typeof block === "object" &&
        block !== null &&
        (((block as { type?: unknown }).type === "text" &&
          typeof (block as { text?: unknown }).text === "string") ||
          (block as { type?: unknown }).type === "image"),
    )
  );
}

/** What a preview is made from, taken at the boundary (the projection is a snapshot). */
interface PreviewSource {
  projection: ReturnType<SessionStore["getProjection"]>;
  pending: AgentMessage[];
  outcome: AgentActivityOutcome;
}

function takePreviewSource(
  core: SessionCore,
  store: SessionStore,
  outcome: AgentActivityOutcome,
): PreviewSource {
  return { projection: store.getProjection(), pending: [...core.steering, ...core.followUps], outcome };
}

/** The preview of `source` from its parts, as given (nothing copied here). */
function assemblePreview(
  source: PreviewSource,
  contextEntries: BoundaryContextPreview["contextEntries"],
  contextMessages: AgentMessage[],
  llmMessages: BoundaryContextPreview["llmMessages"],
  pendingMessages: AgentMessage[],
): BoundaryContextPreview {
  const conversation = llmMessages.filter((message) => message.role !== "system");
  const last = conversation.at(-1);
  const canContinue =
    source.outcome === "completed" &&
    conversation.length > 0 &&
    (last?.role !== "assistant" || pendingMessages.length > 0);
  return { contextEntries, contextMessages, llmMessages, pendingMessages, canContinue };
}

/** The preview from its source and the converted messages (`convert` got its own copy). */
function finishPreview(
  source: PreviewSource,
  contextMessages: AgentMessage[],
  llmMessages: BoundaryContextPreview["llmMessages"],
): BoundaryContextPreview {
  const entries = copyPlainData(source.projection.entries);
  return assemblePreview(source, entries, contextMessages, llmMessages, structuredClone(source.pending));
}

/**
 * The preview of the next request from `store`'s projection with nothing copied: its entries and
 * messages are the session's own objects. Only for a dispatch that hands each handler
 * {@link copyBoundaryPreview} of it, and never to a listener as it is. The built-in `convertToLlm`
 * reads its input without changing it; one of the session's own gets a copy.
 */
export async function shareBoundaryPreview(
  core: SessionCore,
  store: SessionStore,
  outcome: AgentActivityOutcome,
): Promise<BoundaryContextPreview> {
  const source = takePreviewSource(core, store, outcome);
  const messages = source.projection.messages as AgentMessage[];
  const convert = core.options.convertToLlm;
  const llmMessages = convert === undefined ? convertToLlm(messages) : await convert(copyPlainData(messages));
  return assemblePreview(source, source.projection.entries, messages, llmMessages, source.pending);
}

/**
 * A copy of `preview` whose parts are copied apart (`copyPlainData` each, pending messages with
 * `structuredClone`): they share no object with `preview` nor with one another, as the parts
 * {@link buildBoundaryPreview} makes.
 */
export function copyBoundaryPreview(preview: BoundaryContextPreview): BoundaryContextPreview {
  return {
    contextEntries: copyPlainData(preview.contextEntries),
    contextMessages: copyPlainData(preview.contextMessages),
    llmMessages: copyPlainData(preview.llmMessages),
    pendingMessages: structuredClone(preview.pendingMessages),
    canContinue: preview.canContinue,
  };
}

/**
 * The preview of the next request from `store`'s projection (see `BoundaryContextPreview`). Every
 * part is its own copy of the plain data (`copyPlainData`: strings shared, they are immutable): a
 * handler or listener may change what it is given without touching the session or the other parts.
 */
export async function buildBoundaryPreview(
  core: SessionCore,
  store: SessionStore,
  outcome: AgentActivityOutcome,
): Promise<BoundaryContextPreview> {
  const source = takePreviewSource(core, store, outcome);
  const contextMessages = copyPlainData(source.projection.messages);
  const convert = core.options.convertToLlm ?? convertToLlm;
  return finishPreview(source, contextMessages, await convert(copyPlainData(contextMessages)));
}

/**
 * {@link buildBoundaryPreview} made on the first call instead of now, for a boundary nobody may
 * read: copying and converting a long context at every turn costs milliseconds that only a reader
 * needs. What it is made from is taken now (the projection is a snapshot that later appends do not
 * change, the pending messages are listed), so a call made later, after more turns, still returns
 * this boundary's preview. Later calls return the same object. Only for a synchronous `convertToLlm`
 * (the built-in one): with one that returns a promise the call throws, so the caller must build the
 * preview with {@link buildBoundaryPreview} wherever it can be read.
 */
export function deferBoundaryPreview(
  core: SessionCore,
  store: SessionStore,
  outcome: AgentActivityOutcome,
): () => BoundaryContextPreview {
  const source = takePreviewSource(core, store, outcome);
  let preview: BoundaryContextPreview | undefined;
  return () => {
    if (preview === undefined) {
      const contextMessages = copyPlainData(source.projection.messages);
      const convert = core.options.convertToLlm ?? convertToLlm;
      const llmMessages = convert(copyPlainData(contextMessages));
      if (llmMessages instanceof Promise) {
        throw new Error(
          "deferBoundaryPreview: convertToLlm answered asynchronously; the preview had to be built before",
        );
      }
      preview = finishPreview(source, contextMessages, llmMessages);
    }
    return preview;
  };
}
