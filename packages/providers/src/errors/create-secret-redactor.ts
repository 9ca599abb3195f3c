import { findMaskedEchoes } from "../internal/find-masked-echoes";
import { urlCredentials } from "../internal/url-credentials";
import { type Range, WindowIndex } from "../internal/window-index";

/** What a redacted span is replaced with. */
export const REDACTED = "[redacted]";

/** Key-shaped tokens that providers echo back in auth errors ("Incorrect API key provided: sk-ab***yz"). */
const KEY_SHAPED = /\b(?:sk|pk|rk)-[A-Za-z0-9_*.-]{6,}/g;

/**
 * The userinfo of a URL (`scheme://user:password@`). The scheme and the userinfo are bounded by
 * characters that cannot belong to them, so the scan stays linear.
 */
const URL_USERINFO = /\b([a-z][a-z0-9+.-]{0,31}:\/\/)[^\s/?#@"'<>\\]+@/gi;

/** Secrets shorter than this are ignored (too many false hits, and no real key is that short). */
const MIN_SECRET_LENGTH = 4;
/** Runs of a secret at least this long are redacted wherever they appear. */
export const SECRET_RUN_LENGTH = 8;

/** Options of {@link createSecretRedactor}. */
export interface SecretRedactorOptions {
  /**
   * Also redact tokens shaped like API keys (`sk-…`, `pk-…`, `rk-…` followed by 6 or more key
   * characters, masked ones included) even when they are not among the secrets. Right for provider
   * error texts; too eager for a model's answer (`sk-learn-…`). Default `false`.
   */
  keyShaped?: boolean;
}

/** Removes known secrets from texts; see {@link createSecretRedactor}. */
export interface SecretRedactor {
  /**
   * Adds secrets. `undefined`, empty and short values (under 4 characters) and secrets already
   * known are ignored. Mutates the redactor; later `redact` calls use the new secrets.
   */
  add(...secrets: ReadonlyArray<string | undefined>): void;
  /**
   * Adds the password of a URL's userinfo (`https://user:pass@host`), or its user name when there
   * is no password (`https://<token>@host`), raw and percent-decoded. Ignores a URL without
   * userinfo or that does not parse.
   */
  addUrlCredentials(url: string | undefined): void;
  /** How many secrets are known. */
  readonly size: number;
  /**
   * Returns `text` with every secret span replaced by `[redacted]`. Pure in `text`; never throws;
   * time linear in the length of the text (plus the secrets' length when they are added).
   */
  redact(text: string): string;
}

/**
 * Creates a redactor for the given secrets (API keys, passwords). `redact(text)` replaces:
 *
 * - the userinfo of every URL (`https://user:pass@host` → `https://[redacted]@host`), whether or
 *   not it is a known secret;
 * - every run of 8 or more characters of a secret (a key echoed whole or in part), found with an
 *   index of all 8-character windows of each secret and a rolling hash over the text, so the time
 *   is linear in the text whatever the number and length of the secrets; a secret of 4 to 7
 *   characters is redacted where it occurs whole;
 * - masked echoes of a secret: a mask (`***`, `…`, `...`, `•`) with the secret's first characters
 *   before it and / or its last characters after it, at least 4 of them in all (`sk-…abcd`,
 *   `sk-ab***xyz`, `CANARY***6655`, `****6655`); the whole token around the mask is redacted;
 * - with `keyShaped`, any token shaped like an API key.
 *
 * Mutates nothing it is given; the redactor itself grows with `add`.
 */
export function createSecretRedactor(
  secrets: ReadonlyArray<string | undefined> = [],
  options: SecretRedactorOptions = {},
): SecretRedactor {
  const known = new Set<string>();
  const short: string[] = [];
  const windows = new WindowIndex(SECRET_RUN_LENGTH);
  const redactor: SecretRedactor = {
    add(...added) {
      for (const secret of added) {
        if (!secret || secret.length < MIN_SECRET_LENGTH || known.has(secret)) continue;
        known.add(secret);
        if (secret.length < SECRET_RUN_LENGTH) short.push(secret);
        else windows.addAll(secret);
      }
    },
    addUrlCredentials(url) {
      redactor.add(...urlCredentials(url));
    },
    get size() {
      return known.size;
    },
    redact(text) {
      let result = text.includes("://") ? text.replace(URL_USERINFO, `$1${REDACTED}@`) : text;
      if (known.size > 0) result = redactKnown(result, windows, short, [...known]);
      return options.keyShaped ? result.replace(KEY_SHAPED, REDACTED) : result;
    },
  };
  redactor.add(...secrets);
  return redactor;
}

function redactKnown(
  text: string,
  windows: WindowIndex,
  short: readonly string[],
  secrets: string[],
): string {
  const ranges: Range[] = windows.findRuns(text);
  for (const secret of short) {
    for (let at = text.indexOf(secret); at !== -1; at = text.indexOf(secret, at + secret.length)) {
      ranges.push({ start: at, end: at + secret.length });
    }
  }
  // One at a time: a hostile text may hold more echoes than a call takes arguments.
  for (const echo of findMaskedEchoes(text, secrets)) ranges.push(echo);
  if (ranges.length === 0) return text;
  ranges.sort((a, b) => a.start - b.start);
  const parts: string[] = [];
  let cursor = 0;
  let open: Range | undefined;
  for (const range of ranges) {
    if (open !== undefined && range.start <= open.end) {
      open.end = Math.max(open.end, range.end);
      continue;
    }
    if (open !== undefined) {
      parts.push(text.slice(cursor, open.start), REDACTED);
      cursor = open.end;
    }
    open = { ...range };
  }
  if (open !== undefined) {
    parts.push(text.slice(cursor, open.start), REDACTED);
    cursor = open.end;
  }
  parts.push(text.slice(cursor));
  return parts.join("");
}
