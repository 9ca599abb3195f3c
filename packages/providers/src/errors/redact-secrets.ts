const REDACTED = "[redacted]";

/** Key-shaped tokens that providers echo back in auth errors ("Incorrect API key provided: sk-ab***yz"). */
const KEY_SHAPED = /\b(?:sk|pk|rk)-[A-Za-z0-9_*.-]{6,}/g;

/**
 * Removes secrets from a text before it goes into an error message or a log: every occurrence of
 * each given secret (at least 4 characters long), and key-shaped tokens such as `sk-...`, even
 * masked ones. Pure; never throws.
 */
export function redactSecrets(text: string, secrets: ReadonlyArray<string | undefined> = []): string {
  let result = text;
  for (const secret of secrets) {
    if (secret && secret.length >= 4) result = result.split(secret).join(REDACTED);
  }
  return result.replace(KEY_SHAPED, REDACTED);
}
