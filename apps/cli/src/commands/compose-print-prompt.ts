import { usageError } from "../usage/usage-error";

/**
 * The prompt of print mode from `-p PROMPT` and what was piped in (undefined when stdin is a
 * terminal):
 * - only a prompt: the prompt;
 * - only piped text: the piped text is the prompt;
 * - both: the prompt, a blank line, then the piped text as context inside `<stdin>` … `</stdin>`
 *   lines (as `arbor --help` says).
 * Piped text that is empty or only whitespace counts as none. Pure.
 * @throws CliError `CLI_USAGE` when there is neither.
 */
export function composePrintPrompt(prompt: string | undefined, piped: string | undefined): string {
  const input = piped !== undefined && piped.trim() !== "" ? piped : undefined;
  if (prompt !== undefined && input !== undefined) {
    return `${prompt}\n\n<stdin>\n${input.endsWith("\n") ? input : `${input}\n`}</stdin>`;
  }
  if (prompt !== undefined) return prompt;
  if (input !== undefined) return input;
  throw usageError(
    "",
    piped === undefined
      ? '-p needs a prompt: arbor -p "PROMPT", or pipe one in (echo "PROMPT" | arbor -p)'
      : '-p needs a prompt: the piped input was empty, and no PROMPT was given (arbor -p "PROMPT")',
  );
}
