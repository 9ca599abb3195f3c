import { RuntimeError } from "@arbor/runtime";
import type { SlashCommandHandler } from "../interactive-context";

/** `/compact [instructions]`: compacts now; the renderer shows the spinner and the result. */
export const compactSlashCommand: SlashCommandHandler = async (context, args) => {
  try {
    const result = await context.session.compact(args || undefined);
    if (result.usage) context.addCost(result.usage.cost.total);
  } catch (error) {
    context.renderer.stopSpinner();
    if (
      RuntimeError.isInstance(error) &&
      (error.code === "NOTHING_TO_COMPACT" || error.code === "ALREADY_COMPACTED")
    ) {
      context.print(context.style.dim(error.message));
      return;
    }
    throw error;
  }
};
