import { SUBCOMMAND_USAGES } from "./subcommand-usages";

/** Width of the synopsis column of the command list ("  arbor " plus this many characters). */
const SYNOPSIS_COLUMN = 26;

/**
 * One line of the command list: the synopsis, then the summary in the column after it. A synopsis
 * too long for its column keeps it to itself, and the summary goes on the next line, in the column.
 */
function commandLine(synopsis: string, summary: string): string {
  if (synopsis.length < SYNOPSIS_COLUMN - 1) return `  arbor ${synopsis.padEnd(SYNOPSIS_COLUMN)}${summary}`;
  return `  arbor ${synopsis}\n${" ".repeat(SYNOPSIS_COLUMN + 8)}${summary}`;
}

/**
 * The text of `arbor --help`: the agent's usage lines and options (from the agent's usage module),
 * the subcommands with their one-line summaries (from each subcommand's usage module), files, keys
 * and exit codes.
 */
export function formatMainHelp(agentUsageLines: string, agentOptions: string): string {
  const commands = SUBCOMMAND_USAGES.map((usage) => commandLine(usage.synopsis, usage.summary)).join("\n");
  return `arbor: a coding agent whose sessions are append-only trees, with offline session tools

Usage:
${agentUsageLines}
  arbor <command> [options]       see arbor <command> --help
  arbor --help | --version

Commands:
${commands}

${agentOptions}

Files:
  $ARBOR_HOME (default ~/.arbor)       settings.json, models.json, sessions/<folder slug>/
  $ARBOR_HOME/trusted-folders.json     folders whose project configuration is trusted (arbor trust)
  <project>/.arbor/settings.json       project settings (override the global ones)
  <project>/.arbor/models.json         custom models (see arbor models --help)

Project trust: a folder's .arbor/settings.json, .arbor/models.json and the extensions named there
are loaded only once you trust the folder. The interactive mode asks once and remembers the answer;
print mode, --json and the offline commands ignore an untrusted folder's configuration with one
warning line. A project models file may not redefine a built-in or your own model id, and its
apiKeyEnv must end in _API_KEY (unless your own settings list it in "allowedApiKeyEnv").

Keys come from the environment: ANTHROPIC_API_KEY, OPENAI_API_KEY, or <PROVIDER>_API_KEY.
Exit codes: 0 success, 1 error (bad file, missing key, unknown model, locked session, failed run),
2 usage error, 130 interrupted.
`;
}
