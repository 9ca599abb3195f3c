import { openStoreFor } from "../../agent/prepare-agent";
import { clip } from "../../format/message-preview";
import { listSessions } from "../../sessions/list-sessions";
import { resolveSessionsDir } from "../../sessions/session-paths";
import type { InteractiveContext, SlashCommandHandler } from "../interactive-context";

/**
 * Lists the sessions of the working folder (newest first) and asks for one; resolves with its path,
 * or undefined when there is none or the user cancels.
 */
export async function pickSession(
  context: Pick<InteractiveContext, "print" | "ask" | "columns" | "environment" | "style">,
  exclude?: string,
): Promise<string | undefined> {
  const dir = resolveSessionsDir(context.environment.arborHome, context.environment.cwd);
  const sessions = listSessions(dir)
    .filter((session) => session.path !== exclude)
    .slice(0, 20);
  if (sessions.length === 0) {
    context.print("No other session in this folder.");
    return undefined;
  }
  sessions.forEach((session, index) => {
    const when = session.modified.toISOString().slice(0, 16).replace("T", " ");
    const title = session.name ?? session.firstMessage ?? "(no messages)";
    context.print(`${String(index + 1).padStart(3)}. ${when}  ${clip(title, context.columns - 24)}`);
  });
  const answer = await context.ask(`Resume which session? (1-${sessions.length}, Enter to cancel): `);
  const picked = sessions[Number(answer) - 1];
  if (answer && picked === undefined) context.print(context.style.yellow(`No session ${answer}.`));
  return answer ? picked?.path : undefined;
}

/** `/resume`: switches to another session of this folder. */
export const resumeSlashCommand: SlashCommandHandler = async (context) => {
  const file = await pickSession(context, context.store.path);
  if (file === undefined) return;
  const store = openStoreFor(context.environment, { kind: "path", path: file });
  await context.switchTo(store);
  context.print(`Resumed ${file} (${store.getEntryCount()} entries).`);
};
