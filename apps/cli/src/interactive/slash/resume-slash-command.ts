import { openAgentStore } from "../../agent/prepare-agent";
import { clip } from "../../format/message-preview";
import { isDatabaseLocation } from "../../sessions/is-database-location";
import { listSessions } from "../../sessions/list-sessions";
import { resolveSessionArgument } from "../../sessions/resolve-session-argument";
import { resolveSessionsDir } from "../../sessions/session-paths";
import type { InteractiveContext, SlashCommandHandler } from "../interactive-context";

/** How many sessions the typed (non-terminal) list shows. */
const TYPED_LIST_LIMIT = 20;

/**
 * Lists the sessions of the working folder (newest first) and lets the user choose one: with the
 * arrow-key picker on a terminal (starting on the newest; typing filters by name, first message or
 * path), else as a numbered list and a typed number (the 20 newest). Resolves with the chosen path,
 * or undefined when there is none or the user cancels.
 */
export async function pickSession(
  context: Pick<
    InteractiveContext,
    "print" | "ask" | "canPick" | "pick" | "columns" | "environment" | "style"
  >,
  exclude?: string,
): Promise<string | undefined> {
  const dir = resolveSessionsDir(context.environment.arborHome, context.environment.cwd);
  const all = listSessions(dir).filter((session) => session.path !== exclude);
  if (all.length === 0) {
    context.print("No other session in this folder.");
    return undefined;
  }
  const describe = (session: (typeof all)[number]) => ({
    when: session.modified.toISOString().slice(0, 16).replace("T", " "),
    title: session.name ?? session.firstMessage ?? "(no messages)",
  });
  if (context.canPick) {
    return context.pick({
      title: "Resume which session?",
      items: all.map((session) => {
        const { when, title } = describe(session);
        return {
          id: session.path,
          text: `${when}  ${clip(title, context.columns - 24)}`,
          searchText: `${session.name ?? ""} ${session.firstMessage ?? ""}`,
        };
      }),
      selectedId: all[0]?.path ?? null,
    });
  }
  const sessions = all.slice(0, TYPED_LIST_LIMIT);
  sessions.forEach((session, index) => {
    const { when, title } = describe(session);
    context.print(`${String(index + 1).padStart(3)}. ${when}  ${clip(title, context.columns - 24)}`);
  });
  const answer = await context.ask(`Resume which session? (1-${sessions.length}, Enter to cancel): `);
  const picked = sessions[Number(answer) - 1];
  if (answer && picked === undefined) context.print(context.style.yellow(`No session ${answer}.`));
  return answer ? picked?.path : undefined;
}

/**
 * `/resume [session]`: switches to another session. Without an argument, picks one of this folder's
 * sessions. With one: a database location (`postgresql://host/db#<session-id>`, opened with its
 * writer lock, as `--session` opens it), a session file, or a short id or id prefix (`arbor
 * sessions`). A session that cannot be opened (locked by another writer, missing) is reported and
 * the current one stays.
 */
export const resumeSlashCommand: SlashCommandHandler = async (context, args) => {
  const argument = args.trim();
  const location =
    argument === ""
      ? await pickSession(context, context.store.path)
      : isDatabaseLocation(argument)
        ? argument
        : resolveSessionArgument(argument, {
            arborHome: context.environment.arborHome,
            cwd: context.environment.cwd,
            mayCreate: false,
          });
  if (location === undefined) return;
  const store = await openAgentStore(context.environment, { kind: "path", path: location });
  await context.switchTo(store, { reason: "resume" });
  context.print(`Resumed ${location} (${store.getEntryCount()} entries).`);
};
