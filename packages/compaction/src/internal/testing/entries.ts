/** Builds chains of session entries for tests (ids and timestamps deterministic). */
import type { AgentMessage } from "@arbor/agent-loop";
import type { SessionEntry } from "@arbor/session-store";

export class EntryChain {
  readonly entries: SessionEntry[] = [];
  private time = Date.parse("2025-01-01T00:00:00.000Z");
  private previous: string | null = null;

  add(id: string, body: Record<string, unknown> & { type: string }): SessionEntry {
    this.time += 1000;
    const entry = {
      ...body,
      id,
      parentId: this.previous,
      timestamp: new Date(this.time).toISOString(),
    } as unknown as SessionEntry;
    this.entries.push(entry);
    this.previous = id;
    return entry;
  }

  message(id: string, message: AgentMessage): SessionEntry {
    return this.add(id, { type: "message", message: { ...message, timestamp: this.time + 1000 } });
  }
}
