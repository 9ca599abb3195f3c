import type { CommandUsage } from "./command-usage";
import { requireOnePositional } from "./require-one-positional";
import { stringOption } from "./string-option";
import { tokenCountOption } from "./token-count-option";
import { usageError } from "./usage-error";

/** The input of `arbor replay`. */
export interface ReplayInput {
  file: string;
  leaf: string | undefined;
  policy: "pi" | "mask" | "cache-aware";
  model: string | undefined;
  summaryModel: string | undefined;
  window: number | undefined;
  json: boolean;
}

const POLICIES = ["pi", "mask", "cache-aware"] as const;

/** `arbor replay <session>`: options and help. */
export const replayUsage: CommandUsage<ReplayInput> = {
  name: "replay",
  synopsis: "replay <session>",
  summary: "replay a recorded session under a context policy and measure its cost",
  help: `Usage: arbor replay <session> --policy NAME [--leaf ID] [--model ID | --window N] [--summary-model ID] [--json]

Replays the active path of a recorded session through the agent runtime with a context policy,
and reports what the context management costs: requests, input tokens (uncached, cache writes,
cache reads, counted exactly with tiktoken o200k), output tokens, summaries, cost at the price
table, peak context, overflows, compaction loops and retention of the path's facts.

Each recorded user prompt is sent; every request is answered with the next recorded assistant
message, and tools return the recorded results (nothing is executed; no network is used unless
--summary-model is given).
Summaries come from the offline summarizer (free; priced as the request the session's model would
have been sent: a fresh one reading what they summarize at the full input price, or for
cache-aware, which asks for summaries as the conversation itself, by the prompt-cache rules; the
output is what the summarizer wrote), or with --summary-model from that model through its provider
(its key from the environment, e.g. ANTHROPIC_API_KEY; priced from the usage it reports). The answers are the
recorded ones whatever the model would see: this measures the cost of context management, not
the quality of the answers.

<session> is a session file (.jsonl, or .jsonl.gz), read only; it is never changed.

Options:
  --policy NAME   pi (threshold summaries only), mask, or cache-aware
  --leaf ID       replay the path to this entry (default: the session's leaf)
  --model ID      the model whose window, prices and cache rules apply (default claude-sonnet-4-5)
  --window N      use a context window of N tokens (forces compaction on a small window)
  --summary-model ID
                  write the summaries with this model (network; needs its API key)
  --json          print one JSON object
  -h, --help      this help
`,
  options: {
    policy: { type: "string", valueName: "NAME" },
    leaf: { type: "string", valueName: "ID" },
    model: { type: "string", valueName: "ID" },
    "summary-model": { type: "string", valueName: "ID" },
    window: { type: "string", valueName: "N" },
    json: { type: "boolean" },
  },
  toInput: (parsed) => {
    const policy = stringOption(parsed, "policy");
    if (policy === undefined) throw usageError("replay", `--policy is required (${POLICIES.join(", ")})`);
    if (!(POLICIES as readonly string[]).includes(policy)) {
      throw usageError("replay", `--policy expects one of ${POLICIES.join(", ")}, got "${policy}"`);
    }
    const window = tokenCountOption("replay", "--window", stringOption(parsed, "window"));
    if (window !== undefined && window < 4096)
      throw usageError("replay", `--window expects at least 4096, got ${window}`);
    return {
      file: requireOnePositional("replay", parsed, "session") as string,
      leaf: stringOption(parsed, "leaf"),
      policy: policy as ReplayInput["policy"],
      model: stringOption(parsed, "model"),
      summaryModel: stringOption(parsed, "summary-model"),
      window,
      json: parsed.values.json === true,
    };
  },
  run: async (input, io) => {
    const { runReplayCommand } = await import("../commands/replay-command");
    return runReplayCommand(input, io);
  },
};
