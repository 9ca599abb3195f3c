/** The text of `arbor --help`. */
export const HELP_TEXT = `arbor: a coding agent whose sessions are append-only trees, with offline session tools

Usage:
  arbor [options]                      interactive agent
  arbor -p "prompt" [--json] [options] print mode: run to completion, print the final answer
                                       (--json: stream the events as JSON lines)
  arbor inspect <session.jsonl> [--leaf ID] [--keep-recent-tokens N] [--json] [--full]
                                       what the model sees, token estimate, what the next
                                       compaction would cut (no API key needed)
  arbor tree <session.jsonl>           the session tree with labels, summaries and the leaf
  arbor export <session.jsonl> [--leaf ID] [--html|--md] [-o FILE]
                                       the session as one self-contained HTML page (tree,
                                       every leaf's context, compactions; the default) or the
                                       leaf's path as Markdown; -o - writes to stdout
  arbor compact <session.jsonl> [--offline] [--keep-recent-tokens N] [--instructions TEXT]
                                       append a compaction entry (offline summarizer with
                                       --offline or when no API key is set)
  arbor trust [DIR] | untrust [DIR]    load (or ignore) the project configuration of DIR
                                       (default: this folder) and of the folders below it
  arbor trust --list                   the saved trust decisions
  arbor --help | --version

Agent options:
  --provider NAME        anthropic, openai, or a provider from a models file
  --model ID             model id (built-in, or declared in a models file)
  --base-url URL         override the provider's endpoint
  --thinking LEVEL       off, minimal, low, medium, high
  --session PATH         use this session file (created if missing)
  -c, --continue         continue the most recent session of this folder
  -r, --resume           pick a session of this folder to resume
  --no-session           keep the session in memory only
  --trust-project        load this folder's project configuration for this run (nothing saved)

Files:
  $ARBOR_HOME (default ~/.arbor)       settings.json, models.json, sessions/<folder slug>/
  $ARBOR_HOME/trusted-folders.json     folders whose project configuration is trusted (arbor trust)
  <project>/.arbor/settings.json       project settings (override the global ones)
  <project>/.arbor/models.json         custom models: { "models": [ { "id", "provider", "api",
                                       "baseUrl", "contextWindow", "maxTokens" } ] }

Project trust: a folder's .arbor/settings.json, .arbor/models.json and the extensions named there
are loaded only once you trust the folder. The interactive mode asks once and remembers the answer;
print mode, --json and the offline commands ignore an untrusted folder's configuration with one
warning line. A project models file may not redefine a built-in or your own model id, and its
apiKeyEnv must end in _API_KEY (unless your own settings list it in "allowedApiKeyEnv").

Keys come from the environment: ANTHROPIC_API_KEY, OPENAI_API_KEY, or <PROVIDER>_API_KEY.
Exit codes: 0 success, 1 error (bad file, missing key, unknown model, locked session, failed run),
2 usage error, 130 interrupted.
`;
