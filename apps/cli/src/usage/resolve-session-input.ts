import type { CliIo } from "../cli-io";
import { isDatabaseLocation } from "../sessions/is-database-location";
import { resolveSessionArgument } from "../sessions/resolve-session-argument";

/**
 * `input` with its `file` (what the user wrote for `<session>`: a path or a short session id)
 * turned into the session file's path by `resolveSessionArgument` (no file is created). For the
 * offline commands (`inspect`, `tree`, `compact`). A PostgreSQL location is kept as it is.
 * `@arbor/runtime/settings` is imported here, when a command runs: `arbor --version` and `--help`
 * never load it (nor, through the runtime's root entry, the session store, compaction and the rest).
 * @throws CliError like `resolveSessionArgument`.
 */
export async function resolveSessionInput<Input extends { file: string }>(
  input: Input,
  io: CliIo,
): Promise<Input> {
  if (isDatabaseLocation(input.file)) return input;
  const { resolveArborHome } = await import("@arbor/runtime/settings");
  const file = resolveSessionArgument(input.file, {
    arborHome: resolveArborHome(io.env ?? process.env),
    cwd: io.cwd ?? process.cwd(),
    mayCreate: false,
  });
  return { ...input, file };
}
