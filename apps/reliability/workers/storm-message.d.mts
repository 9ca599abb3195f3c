/** The message appended as number `seq` of an append storm (deterministic). */
export function stormMessage(seq: number): Record<string, unknown> & { role: string; timestamp: number };
/** The `seq` a storm message carries, or `undefined` when `message` is not one. */
export function stormSeqOf(message: unknown): number | undefined;
