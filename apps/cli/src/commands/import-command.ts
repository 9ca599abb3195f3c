import fs from "node:fs";
import path from "node:path";
import { importPostgresSession, parsePostgresLocation } from "@arbor/session-store/postgres";
import { CliError } from "../cli-error";
import type { CliIo } from "../cli-io";
import { publicDatabaseLocation } from "../sessions/public-database-location";
import type { ImportInput } from "../usage/import-usage";

/**
 * `arbor import <session.jsonl> --to postgresql://…`: copies the file's exact text into the database
 * (migrating the schema first) and prints the new location (the URL as given, with `#<session-id>`).
 * Returns the exit code; throws user errors for `reportError`.
 */
export async function runImportCommand(input: ImportInput, io: CliIo): Promise<number> {
  const file = path.resolve(io.cwd ?? process.cwd(), input.file);
  let text: string;
  try {
    const bytes = fs.readFileSync(file);
    text = bytes.toString("utf8");
    if (!Buffer.from(text, "utf8").equals(bytes)) {
      throw new CliError(
        "CLI_SESSION_CORRUPT",
        `${input.file}: the file is not valid UTF-8 text, so it cannot be copied byte for byte; nothing was imported`,
      );
    }
  } catch (error) {
    if (CliError.isInstance(error)) throw error;
    throw new CliError(
      "CLI_FILE_NOT_FOUND",
      `${input.file}: cannot read the session file (${(error as Error).message})`,
    );
  }
  const { target, sessionId } = parsePostgresLocation(input.to);
  const id = await importPostgresSession(target, text, sessionId === undefined ? {} : { sessionId });
  const base = publicDatabaseLocation(input.to);
  io.stdout.write(`${base}#${id}\n`);
  return 0;
}
