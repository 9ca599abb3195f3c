import { checkUsage } from "./check-usage";
import type { CommandUsage } from "./command-usage";
import { compactUsage } from "./compact-usage";
import { exportUsage } from "./export-usage";
import { importUsage } from "./import-usage";
import { inspectUsage } from "./inspect-usage";
import { modelsUsage } from "./models-usage";
import { replayUsage } from "./replay-usage";
import { sessionsUsage } from "./sessions-usage";
import { treeUsage } from "./tree-usage";
import { trustUsage, untrustUsage } from "./trust-usage";

/**
 * Every `arbor <command>`, in the order `arbor --help` lists them. A new subcommand is one usage
 * module and one line here.
 */
// biome-ignore lint/suspicious/noExplicitAny: each usage has its own input type
export const SUBCOMMAND_USAGES: ReadonlyArray<CommandUsage<any>> = [
  inspectUsage, // one line per command, so that additions do not collide
  treeUsage,
  checkUsage,
  exportUsage,
  importUsage,
  compactUsage,
  replayUsage,
  sessionsUsage,
  modelsUsage,
  trustUsage,
  untrustUsage,
];
