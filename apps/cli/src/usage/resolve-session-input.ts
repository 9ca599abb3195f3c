import { resolveArborHome } from "@arbor/runtime";
import type { CliIo } from "../cli-io";
import { isDatabaseLocation } from "../sessions/is-database-location";
import { resolveSessionArgument } from "../sessions/resolve-session-argument";

/**
 * `input` with its `file` (what the user wrote for `<session>`: a path or a short session id)
 * turned into the session file's path by `resolveSessionArgument` (no file is created). For the
 * offline commands (`inspect`, `tree`, `compact`). A PostgreSQL location is kept as it is.
 * @throws CliError like `resolveSessionArgument`.
 */
export function resolveSessionInput<Input extends { file: string }>(input: Input, io: CliIo): Input {
  if (isDatabaseLocation(input.file)) return input;
  const file = resolveSessionArgument(input.file, {
    arborHome: resolveArborHome(io.env ?? process.env),
    cwd: io.cwd ?? process.cwd(),
    mayCreate: false,
  });
  return { ...input, file };
}
