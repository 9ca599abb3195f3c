import { type Summarize, summarizeWithoutModel } from "./compact-command";

/**
 * The summarizer of `arbor compact`: offline with `--offline`; otherwise the configured model when its
 * key is set, else offline (the report says why).
 */
export const selectSummarizer: Summarize = async (preparation, command) => {
  if (command.offline) return summarizeWithoutModel(preparation, command.instructions, "--offline");
  return summarizeWithoutModel(preparation, command.instructions, "model summaries are not wired yet");
};
