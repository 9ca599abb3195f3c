import { clip } from "../../format/message-preview";
import type { SlashCommandHandler } from "../interactive-context";

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((block: { type?: string; text?: string }) => (block?.type === "text" ? block.text : ""))
    .join(" ");
}

/**
 * `/fork`: lists the user messages of the branch, asks which one to fork before, and continues in a
 * new session file that ends just before it (the message's text is put back in the input line).
 */
export const forkSlashCommand: SlashCommandHandler = async (context) => {
  const users = context.store
    .getBranch()
    .filter((entry) => entry.type === "message" && entry.message.role === "user")
    .slice(-20);
  if (users.length === 0) {
    context.print("No user message to fork from yet.");
    return;
  }
  users.forEach((entry, index) => {
    const text = entry.type === "message" ? textOf((entry.message as { content?: unknown }).content) : "";
    context.print(
      `${String(index + 1).padStart(3)}. ${clip(entry.id, 40)}  ${clip(text, context.columns - 18)}`,
    );
  });
  const answer = await context.ask(`Fork before which message? (1-${users.length}, Enter to cancel): `);
  const picked = users[Number(answer) - 1];
  if (!answer || picked === undefined) {
    if (answer) context.print(context.style.yellow(`No message ${answer}.`));
    return;
  }
  const result = await context.session.fork({ entryId: picked.id, position: "before" });
  const from = context.store.path;
  await context.switchTo(result.store, { reason: "fork", session: result.session });
  context.print(
    `Forked into ${result.store.path ?? "a new in-memory session"}${from ? ` (from ${from})` : ""}.`,
  );
  if (result.selectedText) context.prefill(result.selectedText);
};
