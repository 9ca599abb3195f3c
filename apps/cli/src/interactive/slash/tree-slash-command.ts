import { formatSessionTree } from "../../tree/format-session-tree";
import type { SlashCommandHandler } from "../interactive-context";

/** Finds an entry by id or unique id prefix; returns an error text otherwise. */
function findEntry(ids: readonly string[], query: string): { id?: string; error?: string } {
  if (ids.includes(query)) return { id: query };
  const matches = ids.filter((id) => id.startsWith(query));
  if (matches.length === 1) return { id: matches[0] as string };
  return {
    error:
      matches.length === 0
        ? `No entry ${query}.`
        : `"${query}" matches ${matches.length} entries; type more of the id.`,
  };
}

/**
 * `/tree`: shows the session tree, asks for the entry to move to, and whether to summarize the branch
 * being left (no / yes / custom instructions, unless `branchSummary.skipPrompt`). Moving to a user
 * message puts its text back in the input line.
 */
export const treeSlashCommand: SlashCommandHandler = async (context) => {
  const { store, style } = context;
  context.print(formatSessionTree(store.getTree(), { leafId: store.leafId, width: context.columns }));
  const answer = await context.ask("Move to entry (id or prefix, Enter to stay): ");
  if (!answer) return;
  const found = findEntry(
    store.getEntries().map((entry) => entry.id),
    answer,
  );
  if (!found.id) {
    context.print(style.yellow(found.error ?? "No such entry."));
    return;
  }
  if (found.id === store.leafId) {
    context.print("Already there.");
    return;
  }
  let summarize = false;
  let customInstructions: string | undefined;
  if (!context.environment.settings.branchSummary?.skipPrompt) {
    const choice = await context.ask(
      "Summarize the branch you leave? [n]o, [y]es, or type focus instructions: ",
    );
    if (/^(y|yes)$/i.test(choice)) summarize = true;
    else if (choice && !/^(n|no)$/i.test(choice)) {
      summarize = true;
      customInstructions = choice;
    }
  }
  if (summarize) context.renderer.startSpinner("Summarizing the branch you leave…");
  let result: Awaited<ReturnType<typeof context.session.navigate>>;
  try {
    result = await context.session.navigate(found.id, {
      summarize,
      ...(customInstructions ? { customInstructions } : {}),
    });
  } finally {
    context.renderer.stopSpinner();
  }
  if (result.cancelled) {
    context.print(style.yellow(result.aborted ? "Navigation aborted." : "Navigation cancelled."));
    return;
  }
  if (result.summaryEntry?.usage) context.addCost(result.summaryEntry.usage.cost.total);
  context.print(
    `Moved to ${store.leafId ?? "the start"}${result.summaryEntry ? `; summarized the branch you left in ${result.summaryEntry.id}` : ""}.`,
  );
  if (result.editorText) context.prefill(result.editorText);
};
