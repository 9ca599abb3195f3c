import type { IncomingHttpHeaders } from "node:http";

const CREDENTIAL_HEADERS = new Set(["authorization", "x-api-key", "api-key", "proxy-authorization"]);

/**
 * Copies request headers for the record with credentials removed: `authorization` keeps only its
 * scheme (`Bearer [redacted]`), `x-api-key` / `api-key` become `[redacted]`, and any other value
 * containing `secret` is redacted as well. Names are lower-case; repeated headers are joined.
 */
export function redactRequestHeaders(headers: IncomingHttpHeaders, secret?: string): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, raw] of Object.entries(headers)) {
    if (raw === undefined) continue;
    const value = Array.isArray(raw) ? raw.join(", ") : raw;
    if (name === "authorization" || name === "proxy-authorization") {
      const scheme = value.split(" ")[0] ?? "";
      result[name] = scheme && scheme !== value ? `${scheme} [redacted]` : "[redacted]";
    } else if (CREDENTIAL_HEADERS.has(name) || (secret && value.includes(secret))) {
      result[name] = "[redacted]";
    } else {
      result[name] = value;
    }
  }
  return result;
}

/** The credential a request carries, from `authorization: Bearer`, `x-api-key` or `api-key`. */
export function credentialOf(headers: IncomingHttpHeaders): string | undefined {
  const authorization = headers.authorization;
  if (typeof authorization === "string" && /^bearer /i.test(authorization))
    return authorization.slice(7).trim();
  const key = headers["x-api-key"] ?? headers["api-key"];
  return typeof key === "string" ? key : undefined;
}
