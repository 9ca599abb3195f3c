/**
 * Recipe 2 of the seeds, as a pi-style extension (`export default function (pi)`): turn the messages
 * to summarize into text yourself (`convertToLlm`, then `serializeConversation`), send your own prompt
 * to a model, and store what comes back as the compaction summary.
 *
 * Two things the seed's recipe leaves implicit, handled here:
 * - **split turns**: when the cut falls inside a turn (a one-prompt agent run, for example),
 *   `messagesToSummarize` can be empty and the turn's start is in `turnPrefixMessages`; both are
 *   serialized, in order;
 * - **file lists**: a summary from an extension is stored as given (`fromHook: true`), so the files
 *   read and modified are not appended for you; `formatFileOperations` adds them.
 *
 * The model is the session's own unless `settings.serializeItYourself.model` names another
 * (`provider/id`). Types are imported only: the file loads from any folder.
 */
import type { AssistantMessage } from "@arbor/providers";
import type { PiExtensionApi } from "@arbor/runtime";

/** The instructions sent with the serialized conversation. */
export const SUMMARY_PROMPT =
  "Write a short handover note of the conversation below for another engineer who continues the work: " +
  "the goal, what was done, what is left, and every file path, id and constraint the user gave. " +
  "Do not continue the conversation.";

/** The text of an assistant message (its text blocks, joined). */
export function textOf(message: AssistantMessage): string {
  return message.content
    .map((block) => (block.type === "text" ? block.text : ""))
    .join("")
    .trim();
}

export default function serializeItYourself(pi: PiExtensionApi): void {
  pi.on("session_before_compact", async (event, ctx) => {
    const { preparation } = event;
    const messages = [...preparation.messagesToSummarize, ...preparation.turnPrefixMessages];
    const conversationText = pi.compaction.serializeConversation(pi.compaction.convertToLlm(messages));

    const configured = (pi.getSettings().serializeItYourself as { model?: string } | undefined)?.model;
    const [providerName, modelId] = configured?.includes("/") ? configured.split("/", 2) : [undefined, configured];
    const model = modelId === undefined ? ctx.model : ctx.modelRegistry.find(providerName, modelId);
    if (model === undefined) throw new Error(`model ${configured} is not configured`);
    const provider = await ctx.modelRegistry.providerFor(model);

    let answer: AssistantMessage | undefined;
    const request = {
      model,
      systemPrompt: SUMMARY_PROMPT,
      messages: [{ role: "user" as const, content: `<conversation>\n${conversationText}\n</conversation>`, timestamp: Date.now() }],
    };
    for await (const streamed of provider.stream(request, { signal: ctx.signal, cacheRetention: "none" })) {
      if (streamed.type === "done" || streamed.type === "error") answer = streamed.message;
    }
    if (answer === undefined || answer.stopReason === "error" || answer.stopReason === "aborted") {
      throw new Error(`the summary request failed: ${answer?.errorMessage ?? "no answer"}`);
    }
    const { readFiles, modifiedFiles } = pi.compaction.computeFileLists(preparation.fileOps);
    const summary = `${textOf(answer)}${pi.compaction.formatFileOperations(readFiles, modifiedFiles)}`;
    return {
      compaction: {
        summary,
        firstKeptEntryId: preparation.firstKeptEntryId,
        tokensBefore: preparation.tokensBefore,
        usage: answer.usage,
        details: { readFiles, modifiedFiles, serializedChars: conversationText.length },
      },
    };
  });
}
