import { nodeCrypto } from "./node-crypto";

/**
 * A UUIDv7 (RFC 9562): 48-bit Unix milliseconds, then random bits, so ids sort by creation time.
 * `now` is injectable for tests.
 */
export function createSessionId(now: number = Date.now()): string {
  const bytes = nodeCrypto().randomBytes(16);
  let time = now;
  for (let index = 5; index >= 0; index--) {
    bytes[index] = time % 256;
    time = Math.floor(time / 256);
  }
  bytes[6] = ((bytes[6] as number) & 0x0f) | 0x70;
  bytes[8] = ((bytes[8] as number) & 0x3f) | 0x80;
  const hex = bytes.toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

const SESSION_ID_PATTERN = /^[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?$/;

/** True when `id` is a usable session id: letters, digits, `.`, `_`, `-`, starting and ending alphanumeric. */
export function isValidSessionId(id: string): boolean {
  return SESSION_ID_PATTERN.test(id);
}
