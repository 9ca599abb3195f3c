import type { AgentMessage } from "@arbor/agent-loop";
import { isCacheAnchorUsable, type Message } from "@arbor/providers";

/**
 * Where a context policy puts `ProviderRequest.cacheAnchor`: the last message before the first one it
 * may still edit (`isEditable`), among those an adapter accepts as an anchor (`isCacheAnchorUsable`).
 * Everything up to it stays as it is until the next compaction, so the prompt cache keeps a readable
 * entry there even when the policy edits what follows. Undefined when no message qualifies. Pure.
 */
export function planCacheAnchor(
  messages: readonly Message[],
  isEditable: (message: AgentMessage) => boolean,
): number | undefined {
  let firstEditable = messages.length;
  for (let index = 0; index < messages.length; index++) {
    if (isEditable(messages[index] as AgentMessage)) {
      firstEditable = index;
      break;
    }
  }
  for (let index = Math.min(firstEditable, messages.length - 1) - 1; index >= 0; index--) {
    if (isCacheAnchorUsable(messages, index)) return index;
  }
  return undefined;
}
