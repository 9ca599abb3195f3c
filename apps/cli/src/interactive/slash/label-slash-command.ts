import type { SlashCommandHandler } from "../interactive-context";

/**
 * `/label [text]`: labels the latest entry of the branch that is not itself a label or a name (no text
 * clears its label). Labels show in `/tree` and `arbor tree`.
 */
export const labelSlashCommand: SlashCommandHandler = async (context, args) => {
  const target = [...context.store.getBranch()]
    .reverse()
    .find((entry) => entry.type !== "label" && entry.type !== "session_info");
  if (target === undefined) {
    context.print("Nothing to label yet.");
    return;
  }
  context.store.appendLabelChange(target.id, args || undefined);
  context.print(args ? `Labelled ${target.id} "${args}".` : `Cleared the label of ${target.id}.`);
};
