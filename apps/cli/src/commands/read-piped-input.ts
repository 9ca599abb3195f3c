import { CliError } from "../cli-error";
import { firstInvalidUtf8Byte } from "../tools/first-invalid-utf8-byte";

/** The most print mode reads from a pipe: 16 MiB (far beyond any model's context window). */
export const MAX_PIPED_INPUT_BYTES = 16 * 1024 * 1024;

/**
 * Reads everything piped into `stdin` (to its end) as UTF-8 text; undefined when `stdin` is a
 * terminal (nothing is read then). A leading byte order mark is dropped. An empty pipe gives "".
 * @throws CliError `CLI_STDIN_INVALID` when the input is larger than {@link MAX_PIPED_INPUT_BYTES}
 *   (reading stops there) or is not valid UTF-8 (naming the byte offset).
 */
export async function readPipedInput(
  stdin: NodeJS.ReadableStream & { isTTY?: boolean },
): Promise<string | undefined> {
  if (stdin.isTTY === true) return undefined;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stdin) {
    const buffer = typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer);
    size += buffer.length;
    if (size > MAX_PIPED_INPUT_BYTES) {
      (stdin as { destroy?: () => void }).destroy?.();
      throw new CliError(
        "CLI_STDIN_INVALID",
        `the piped input is larger than ${MAX_PIPED_INPUT_BYTES / 1024 / 1024} MiB; pass a smaller part (head, tail, grep) or let the agent read the file`,
      );
    }
    chunks.push(buffer);
  }
  const bytes = Buffer.concat(chunks);
  const invalid = firstInvalidUtf8Byte(bytes);
  if (invalid !== -1) {
    throw new CliError(
      "CLI_STDIN_INVALID",
      `the piped input is not UTF-8 text (invalid byte at offset ${invalid}); pipe text, or let the agent read the file`,
    );
  }
  return bytes.toString("utf8").replace(/^\uFEFF/, "");
}
