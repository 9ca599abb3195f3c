import { createSecretRedactor } from "./create-secret-redactor";

/**
 * Removes secrets from a text before it goes into an error message or a log: URL userinfo
 * (`https://user:pass@host`), every run of 8 or more characters of each given secret (a secret of 4
 * to 7 characters where it occurs whole), masked echoes of a secret (`sk-…abcd`, `CANARY***6655`),
 * and key-shaped tokens such as `sk-...`, even masked ones. Time linear in the text. Pure; never
 * throws. To redact many texts with the same secrets, build one {@link createSecretRedactor}
 * (with `keyShaped: true` for the same result) instead.
 */
export function redactSecrets(text: string, secrets: ReadonlyArray<string | undefined> = []): string {
  return createSecretRedactor(secrets, { keyShaped: true }).redact(text);
}
