import type { SlashCommandHandler } from "../interactive-context";

/** `/clone`: copies the current branch into a new session file and continues there. */
export const cloneSlashCommand: SlashCommandHandler = async (context) => {
  if (context.store.leafId === null) {
    context.print("Nothing to clone yet.");
    return;
  }
  const result = await context.session.fork();
  await context.switchTo(result.store, { reason: "fork", session: result.session });
  context.print(`Cloned into ${result.store.path ?? "a new in-memory session"}.`);
};
