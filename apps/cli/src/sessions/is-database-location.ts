/**
 * Whether a session argument is a PostgreSQL location (`postgresql://host/db#<session-id>`, or
 * `postgres://`) rather than a file path or a short id. Kept here, not imported from
 * `@arbor/session-store/postgres`, so that the JSONL path never loads the database backend.
 */
export function isDatabaseLocation(location: string): boolean {
  return /^postgres(ql)?:\/\//i.test(location);
}
