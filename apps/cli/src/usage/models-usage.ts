import type { CommandUsage } from "./command-usage";
import { requireOnePositional } from "./require-one-positional";

/** The input of `arbor models`. */
export interface ModelsInput {
  json: boolean;
}

/** `arbor models`: options and help. */
export const modelsUsage: CommandUsage<ModelsInput> = {
  name: "models",
  synopsis: "models",
  summary: "the models: window, max output, price, where defined",
  help: `Usage: arbor models [--json]

Lists every model arbor can use here: the built-in catalog and the models declared in
$ARBOR_HOME/models.json (which may replace a built-in model) and, in a trusted folder (arbor trust),
<project>/.arbor/models.json (which may only add models). For each: provider/id (what --model takes), context
window, maximum output tokens, price in US dollars per million input / output tokens, and where it
is defined. "*" marks the model arbor uses by default here (the settings' defaultModel, else
anthropic/claude-sonnet-4-6, or openai/gpt-4.1 when only OPENAI_API_KEY is set).

A models file: { "models": [ { "id", "provider", "api", "contextWindow", "maxTokens", "baseUrl"?,
"name"?, "reasoning"?, "input"?, "cost"?, "apiKeyEnv"?, "headers"? } ] } (see the README).

Options:
  --json        one JSON object: { "models": [ { "provider", "id", "name", "contextWindow",
                "maxTokens", "cost", "source", "default" } ] }
  -h, --help    this help
`,
  options: { json: { type: "boolean" } },
  toInput: (parsed) => {
    requireOnePositional("models", parsed, undefined);
    return { json: parsed.values.json === true };
  },
  run: async (input, io) => (await import("../commands/models-command")).runModelsCommand(input, io),
};
