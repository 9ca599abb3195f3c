/**
 * The secret part of a URL's userinfo: its password (`https://user:pass@host`), or its user name
 * when there is no password (`https://<token>@host`; a user name next to a password is only a name),
 * raw and percent-decoded. Empty for a URL without userinfo or one that does not parse.
 */
export function urlCredentials(url: string | undefined): string[] {
  if (!url) return [];
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return [];
  }
  const secret = parsed.password !== "" ? parsed.password : parsed.username;
  if (secret === "") return [];
  try {
    const decoded = decodeURIComponent(secret);
    return decoded === secret ? [secret] : [secret, decoded];
  } catch {
    return [secret];
  }
}
