import { usageError } from "./usage-error";

/**
 * `--base-url`: an http(s) URL, else a usage error; undefined when absent.
 * @throws CliError `CLI_USAGE` naming the value.
 */
export function baseUrlOption(command: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== "http:" && url.protocol !== "https:")) {
    throw usageError(
      command,
      `--base-url expects an http:// or https:// URL such as http://127.0.0.1:8080/v1, got "${value}"`,
    );
  }
  return value;
}
