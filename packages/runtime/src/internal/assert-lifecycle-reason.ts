import { RuntimeError } from "../runtime-error";

const REASONS = {
  startReason: ["startup", "reload", "new", "resume", "fork"],
  "dispose(reason)": ["quit", "reload", "new", "resume", "fork"],
} as const;

/**
 * Checks a `session_start` / `session_shutdown` reason given by a caller (JavaScript callers are not
 * held to the type).
 *
 * @throws RuntimeError `INVALID_ARGUMENT` naming the option and the allowed values.
 */
export function assertLifecycleReason(where: keyof typeof REASONS, value: unknown): void {
  const allowed: readonly unknown[] = REASONS[where];
  if (!allowed.includes(value)) {
    throw new RuntimeError(
      "INVALID_ARGUMENT",
      `${where} must be one of ${REASONS[where].join(", ")}, got ${String(value)}`,
    );
  }
}
