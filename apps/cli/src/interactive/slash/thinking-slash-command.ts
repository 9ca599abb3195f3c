import type { ReasoningLevel } from "@arbor/providers";
import { THINKING_LEVELS } from "../../usage/agent-usage";
import type { SlashCommandHandler } from "../interactive-context";

/**
 * `/thinking [LEVEL]`: without a level, shows the current one and the choices; with one of `off`,
 * `minimal`, `low`, `medium`, `high`, sets it for the next requests (the session records a
 * `thinking_level_change` entry). A model without reasoning ignores it (said so).
 */
export const thinkingSlashCommand: SlashCommandHandler = async (context, args) => {
  const level = args.trim().toLowerCase();
  const current = context.session.thinkingLevel ?? "off";
  if (level === "") {
    context.print(`Thinking: ${current} (choose with /thinking ${THINKING_LEVELS.join("|")})`);
    return;
  }
  if (!THINKING_LEVELS.includes(level)) {
    context.print(
      context.style.yellow(`Unknown level "${level}": use one of ${THINKING_LEVELS.join(", ")}.`),
    );
    return;
  }
  await context.session.setThinkingLevel(level as ReasoningLevel);
  const model = context.session.model;
  const note =
    model.reasoning || level === "off" ? "" : ` (${model.provider}/${model.id} does not reason: no effect)`;
  context.print(`Thinking: ${level}${note}`);
};
