import type { SlashCommandHandler } from "../interactive-context";

/** `/name [text]`: names the session (no text clears the name). */
export const nameSlashCommand: SlashCommandHandler = async (context, args) => {
  context.store.appendSessionInfo(args);
  context.print(
    args ? `Session named "${context.store.getSessionName() ?? args}".` : "Session name cleared.",
  );
};
