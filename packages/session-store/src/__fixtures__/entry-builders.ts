/**
 * Small builders for hand-made entries in tests. Timestamps advance by one second per entry from a
 * fixed start so results are deterministic.
 */
import type { Usage } from "@arbor/providers";
import type { SessionEntry, SessionHeader } from "../session-entry";

export function usage(input: number, output: number, totalTokens = input + output): Usage {
  return {
    input,
    output,
    cacheRead: 0,
    cacheWrite: 0,
    totalTokens,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
  };
}

export function header(version = 3, extra: Record<string, unknown> = {}): SessionHeader {
  return {
    type: "session",
    version,
    id: "01930000-0000-7000-8000-000000000000",
    timestamp: "2024-12-03T14:00:00.000Z",
    cwd: "/home/user/proj",
    ...extra,
  };
}

/** Builds a chain of entries: each `add` links to the previous entry unless a parent is given. */
export class EntryChain {
  readonly entries: SessionEntry[] = [];
  private time = Date.parse("2024-12-03T14:00:00.000Z");
  private previous: string | null = null;

  add<T extends { type: string }>(id: string, body: T, parentId?: string | null): SessionEntry {
    this.time += 1000;
    const timestamp = new Date(this.time).toISOString();
    const entry = {
      ...body,
      id,
      parentId: parentId === undefined ? this.previous : parentId,
      timestamp,
    } as unknown as SessionEntry;
    const message = (entry as { message?: { timestamp?: number } }).message;
    if (entry.type === "message" && message) message.timestamp = this.time;
    this.entries.push(entry);
    this.previous = id;
    return entry;
  }

  user(id: string, content: unknown = `text of ${id}`, parentId?: string | null): SessionEntry {
    return this.add(id, { type: "message", message: { role: "user", content } }, parentId);
  }

  assistant(id: string, text = `reply ${id}`, parentId?: string | null, model = "claude-x"): SessionEntry {
    return this.add(
      id,
      {
        type: "message",
        message: {
          role: "assistant",
          content: [{ type: "text", text }],
          api: "anthropic-messages",
          provider: "anthropic",
          model,
          usage: usage(100, 10),
          stopReason: "stop",
        },
      },
      parentId,
    );
  }

  toolResult(id: string, text = `result ${id}`, parentId?: string | null): SessionEntry {
    return this.add(
      id,
      {
        type: "message",
        message: {
          role: "toolResult",
          toolCallId: `call-${id}`,
          toolName: "read",
          content: [{ type: "text", text }],
          isError: false,
        },
      },
      parentId,
    );
  }

  system(id: string, patch: Record<string, unknown>, parentId?: string | null): SessionEntry {
    return this.add(id, { type: "message", message: { role: "system", content: "", ...patch } }, parentId);
  }
}
