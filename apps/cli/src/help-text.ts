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
  arbor compact <session.jsonl> [--offline] [--keep-recent-tokens N] [--instructions TEXT]
                                       append a compaction entry (offline summarizer with
                                       --offline or when no API key is set)
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

Files:
  $ARBOR_HOME (default ~/.arbor)       settings.json, models.json, sessions/<folder slug>/
  <project>/.arbor/settings.json       project settings (override the global ones)
  <project>/.arbor/models.json         custom models: { "models": [ { "id", "provider", "api",
                                       "baseUrl", "contextWindow", "maxTokens" } ] }

Keys come from the environment: ANTHROPIC_API_KEY, OPENAI_API_KEY, or <PROVIDER>_API_KEY.
Exit codes: 0 success, 1 error (bad file, missing key, unknown model, locked session, failed run),
2 usage error, 130 interrupted.
`;
