import { formatSessionTree } from "../../tree/format-session-tree";
import { sessionTreeRows } from "../../tree/session-tree-rows";
import type { InteractiveContext, SlashCommandHandler } from "../interactive-context";

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
 * Asks for the entry to move to: the arrow-key picker over the tree rows (starting on the leaf) on a
 * terminal, else the printed tree and a typed id or unique prefix. Resolves with the entry id, or
 * undefined when the user cancels or typed no valid id (a notice is printed).
 */
async function chooseEntry(context: InteractiveContext): Promise<string | undefined> {
  const { store, style } = context;
  if (context.canPick) {
    const items = sessionTreeRows(store.getTree(), { leafId: store.leafId, width: context.columns - 3 });
    if (items.length === 0) {
      context.print("The session has no entries yet.");
      return undefined;
    }
    const id = await context.pick({ title: "Move to which entry?", items, selectedId: store.leafId });
    if (id === undefined) context.print(style.dim("Stayed where you were."));
    return id;
  }
  context.print(formatSessionTree(store.getTree(), { leafId: store.leafId, width: context.columns }));
  const answer = await context.ask("Move to entry (id or prefix, Enter to stay): ");
  if (!answer) return undefined;
  const found = findEntry(
    store.getEntries().map((entry) => entry.id),
    answer,
  );
  if (!found.id) context.print(style.yellow(found.error ?? "No such entry."));
  return found.id;
}

/**
 * `/tree`: lets the user pick the entry to move to (see {@link chooseEntry}), asks whether to
 * summarize the branch being left (no / yes / custom instructions, unless `branchSummary.skipPrompt`),
 * and moves there. Moving to a user message puts its text back in the input line.
 */
export const treeSlashCommand: SlashCommandHandler = async (context) => {
  const { store, style } = context;
  const target = await chooseEntry(context);
  if (target === undefined) return;
  if (target === store.leafId) {
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
    result = await context.session.navigate(target, {
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
