import os from "node:os";
import { formatBytes } from "../format/format-bytes";
import { buildSystemPrompt, type SystemPrompt } from "./build-system-prompt";
import { loadContextFiles, MAX_CONTEXT_FILE_BYTES } from "./load-context-files";
import { resolvePromptOption } from "./resolve-prompt-option";

/** The flags that shape the system prompt. */
export interface SystemPromptFlags {
  /** `--system-prompt FILE|TEXT`. */
  systemPrompt: string | undefined;
  /** `--append-system-prompt FILE|TEXT`. */
  appendSystemPrompt: string | undefined;
  /** `--no-context-files`. */
  noContextFiles: boolean;
}

/**
 * The system prompt of a run in `cwd`: the context files (unless `noContextFiles`), the
 * `--system-prompt` / `--append-system-prompt` texts (read from their files), arbor's instructions
 * and the environment (see `buildSystemPrompt` for the order). `warn` gets one line (ending with a
 * newline) per context file that was cut at the size limit, had bytes that are not UTF-8, or could
 * not be read. Reads files only.
 * @throws CliError `CLI_USAGE` for a prompt flag naming a missing or too large file.
 */
export function assembleSystemPrompt(options: {
  cwd: string;
  arborHome: string;
  env: NodeJS.ProcessEnv;
  flags: SystemPromptFlags;
  warn: (line: string) => void;
  date?: Date;
}): SystemPrompt {
  const { flags, warn } = options;
  const custom =
    flags.systemPrompt !== undefined
      ? resolvePromptOption("--system-prompt", flags.systemPrompt, options.cwd)
      : undefined;
  const append =
    flags.appendSystemPrompt !== undefined
      ? resolvePromptOption("--append-system-prompt", flags.appendSystemPrompt, options.cwd)
      : undefined;
  const contextFiles = flags.noContextFiles
    ? []
    : loadContextFiles({
        cwd: options.cwd,
        arborHome: options.arborHome,
        home: options.env.HOME || os.homedir(),
        onUnreadable: (file, error) =>
          warn(`arbor: warning: context file ${file} left out: ${error.message}\n`),
      });
  for (const file of contextFiles) {
    if (file.truncated) {
      warn(
        `arbor: warning: context file ${file.path} is ${formatBytes(file.bytes)}: only its first ${formatBytes(MAX_CONTEXT_FILE_BYTES)} go to the model\n`,
      );
    }
    if (file.replacedInvalidUtf8) {
      warn(`arbor: warning: context file ${file.path} is not valid UTF-8: the bad bytes were replaced\n`);
    }
  }
  return buildSystemPrompt({
    cwd: options.cwd,
    contextFiles,
    ...(custom ? { custom } : {}),
    ...(append ? { append } : {}),
    ...(options.date ? { date: options.date } : {}),
  });
}
