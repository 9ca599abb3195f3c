/**
 * The message appended as number `seq` of an append storm. Deterministic: the killed child and the
 * verifying parent compute the same object, so the parent can check every entry byte for byte.
 * Plain JavaScript so that the child runs on the built packages without a TypeScript loader.
 */

const BASE_TIME = 1_750_000_000_000;

/** A 32-bit hash of `seq` (sizes and roles vary without a shared random state). */
function hash(seq) {
  let x = (seq + 0x9e3779b9) | 0;
  x = Math.imul(x ^ (x >>> 16), 0x85ebca6b);
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35);
  return (x ^ (x >>> 16)) >>> 0;
}

/** Tool output of a size drawn from `seq`: mostly 200 B to 4 KB, every 64th 64 KB to 512 KB. */
function toolOutput(seq) {
  const h = hash(seq);
  const size = seq % 64 === 63 ? 65_536 + (h % 458_752) : 200 + (h % 3_900);
  const line = `line ${seq} of the storm output: ünïcödé ✓ "quoted" \\ back\tslash\n`;
  return line.repeat(Math.ceil(size / line.length)).slice(0, size);
}

/**
 * Returns the message of storm entry `seq`: a user message, an assistant tool call or a tool result
 * (cycling), carrying `#<seq>` at the start of its first text so that the parent can recover `seq`.
 *
 * @param {number} seq
 */
export function stormMessage(seq) {
  const timestamp = BASE_TIME + seq;
  switch (seq % 3) {
    case 0:
      return { role: "user", content: `#${seq} please look at src/file-${seq % 17}.ts`, timestamp };
    case 1:
      return {
        role: "assistant",
        content: [
          { type: "text", text: `#${seq} reading it` },
          {
            type: "toolCall",
            id: `call_${seq}`,
            name: "read",
            arguments: { path: `src/file-${seq % 17}.ts` },
          },
        ],
        api: "anthropic-messages",
        provider: "anthropic",
        model: "claude-storm",
        usage: {
          input: 1000 + seq,
          output: 20,
          cacheRead: 0,
          cacheWrite: 0,
          totalTokens: 1020 + seq,
          cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
        },
        stopReason: "toolUse",
        timestamp,
      };
    default:
      return {
        role: "toolResult",
        toolCallId: `call_${seq - 1}`,
        toolName: "read",
        content: [{ type: "text", text: `#${seq} ${toolOutput(seq)}` }],
        isError: false,
        timestamp,
      };
  }
}

/**
 * The `seq` a storm message carries, or `undefined` when `message` is not one.
 *
 * @param {unknown} message
 */
export function stormSeqOf(message) {
  if (typeof message !== "object" || message === null) return undefined;
  const content = /** @type {{ content?: unknown }} */ (message).content;
  const text =
    typeof content === "string"
      ? content
      : Array.isArray(content) && typeof content[0]?.text === "string"
        ? content[0].text
        : undefined;
  const match = text === undefined ? null : /^#(\d+) /.exec(text);
  return match ? Number(match[1]) : undefined;
}
