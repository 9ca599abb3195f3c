import { exportSlashCommand } from "../../export/export-slash-command";
import type { SlashCommandHandler } from "../interactive-context";
import { cloneSlashCommand } from "./clone-slash-command";
import { compactSlashCommand } from "./compact-slash-command";
import { forkSlashCommand } from "./fork-slash-command";
import { labelSlashCommand } from "./label-slash-command";
import { modelSlashCommand } from "./model-slash-command";
import { nameSlashCommand } from "./name-slash-command";
import { newSlashCommand } from "./new-slash-command";
import { resumeSlashCommand } from "./resume-slash-command";
import { sessionSlashCommand } from "./session-slash-command";
import { thinkingSlashCommand } from "./thinking-slash-command";
import { treeSlashCommand } from "./tree-slash-command";

/** Handlers of the slash commands that act on the session (help and quit are handled by the app). */
export const SLASH_COMMAND_HANDLERS: Readonly<Record<string, SlashCommandHandler>> = {
  compact: compactSlashCommand,
  tree: treeSlashCommand,
  fork: forkSlashCommand,
  clone: cloneSlashCommand,
  label: labelSlashCommand,
  name: nameSlashCommand,
  session: sessionSlashCommand,
  model: modelSlashCommand,
  thinking: thinkingSlashCommand,
  new: newSlashCommand,
  resume: resumeSlashCommand,
  export: exportSlashCommand,
};
