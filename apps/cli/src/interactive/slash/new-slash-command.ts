import { openStoreFor } from "../../agent/prepare-agent";
import type { SlashCommandHandler } from "../interactive-context";

/** `/new`: starts a new session (in memory with `--no-session`), keeping the model. */
export const newSlashCommand: SlashCommandHandler = async (context) => {
  const memory = context.environment.options.noSession;
  const store = openStoreFor(context.environment, memory ? { kind: "memory" } : { kind: "new" });
  await context.switchTo(store, { reason: "new" });
  context.print(`New session ${store.sessionId}${memory ? " (in memory)" : ""}.`);
};
