/**
 * A PostgreSQL URL as the CLI prints it: without its user and password (the CLI's output redacts a
 * URL's userinfo anyway, and a printed location must be usable as typed) and without a fragment.
 * Credentials then come from the environment (`PGUSER`, `PGPASSWORD`) or the user's own URL.
 */
export function publicDatabaseLocation(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = "";
    parsed.password = "";
    parsed.hash = "";
    return parsed.toString();
  } catch {
    return url.replace(/#.*$/, "").replace(/\/\/[^@/]*@/, "//");
  }
}
