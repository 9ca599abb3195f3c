import { textReply } from "@arbor/providers/testing";
import { SessionStorageError } from "@arbor/session-store";
import { afterEach, describe, expect, it } from "vitest";
import { closeHarnesses, createHarness, scriptReplies } from "../helpers/harness";

afterEach(closeHarnesses);

/**
 * The async seam (packages/session-store/docs/postgres.md): the runtime awaits `store.flush()` where
 * a JSONL append returns, so an asynchronous store (PostgreSQL) has acknowledged each message before
 * listeners hear of it, and every operation's entries before the operation resolves.
 */
describe("the runtime awaits the store's acknowledgement", () => {
  it("flushes each persisted message before its message end is delivered, and before prompt resolves", async () => {
    const h = await createHarness();
    scriptReplies(h.server, [textReply("hello back")]);
    const order: string[] = [];
    let acknowledged = 0;
    h.store.flush = async () => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      acknowledged = h.store.getEntryCount();
      order.push(`flush ${acknowledged}`);
    };
    h.session.subscribe((event) => {
      if (/^message[-_]end$/.test(event.type)) order.push(`event with ${acknowledged} acknowledged`);
    });
    await h.session.prompt("hello");
    expect(order.slice(0, 4)).toEqual([
      "flush 1",
      "event with 1 acknowledged",
      "flush 2",
      "event with 2 acknowledged",
    ]);
    expect(order.at(-1)).toBe("flush 2");
  });

  it("rejects the prompt with the store's typed error when the acknowledgement fails", async () => {
    const h = await createHarness();
    scriptReplies(h.server, [textReply("never acknowledged")]);
    const lost = new SessionStorageError("SESSION_LOCK_LOST", "test: the writer's connection ended");
    h.store.flush = () => Promise.reject(lost);
    await expect(h.session.prompt("hello")).rejects.toBe(lost);
  });
});
