import { SUBCOMMAND_USAGES } from "./subcommand-usages";

/**
 * The text of `arbor --help`: the agent's usage lines and options (from the agent's usage module),
 * the subcommands with their one-line summaries (from each subcommand's usage module), files, keys
 * and exit codes.
 */
export function formatMainHelp(agentUsageLines: string, agentOptions: string): string {
  const commands = SUBCOMMAND_USAGES.map(
    (usage) => `  arbor ${usage.synopsis.padEnd(26)}${usage.summary}`,
  ).join("\n");
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
