import { createInMemorySessionStore, type SessionEntry } from "@arbor/session-store";
import { describe, expect, it } from "vitest";
import type { SessionCore } from "../internal/session-core";
import { previewStore } from "./preview-store";

const say = (text: string) => ({ role: "user" as const, content: text, timestamp: 1 });

/** A session with three messages, as the runtime's core holds it. */
function session() {
  const store = createInMemorySessionStore();
  for (const text of ["one", "two", "three"]) store.appendMessage(say(text));
  return { core: { store } as unknown as SessionCore, store };
}

const ids = (entries: readonly SessionEntry[]) => entries.map((entry) => entry.id);

describe("previewStore", () => {
  it("is the session's branch, and the same copy with only the new entries added while the path goes on", () => {
    const { core, store } = session();
    const first = previewStore(core);
    expect(ids(first.getBranch())).toEqual(ids(store.getBranch()));
    // A preview applies drafts to it...
    first.appendCustomMessageEntry({ customType: "note", content: "draft", display: true });
    first.appendMessage(say("draft 2"));
    // ...and the session goes on.
    store.appendMessage(say("four"));
    store.appendMessage(say("five"));
    const second = previewStore(core);
    expect(second).toBe(first);
    expect(ids(second.getBranch())).toEqual(ids(store.getBranch()));
    expect(second.leafId).toBe(store.leafId);
    expect(second.getProjection().messages).toEqual(store.getProjection().messages);
    // Nothing new: back to the end of the path, the drafts left on a side branch.
    second.appendMessage(say("draft 3"));
    expect(previewStore(core).getBranch()).toEqual(store.getBranch());
  });

  it("is made again when the session's leaf moved to another branch", () => {
    const { core, store } = session();
    const first = previewStore(core);
    const [root] = store.getBranch();
    store.branch(root?.id as string);
    store.appendMessage(say("elsewhere"));
    const second = previewStore(core);
    expect(second).not.toBe(first);
    expect(second.getBranch()).toEqual(store.getBranch());
  });

  it("is made again when a new entry's id is taken in the copy by an earlier draft", () => {
    const { core, store } = session();
    const first = previewStore(core);
    const draft = first.appendMessage(say("draft"));
    // The session gets an entry with the same id (ids are random; here on purpose).
    const clash = { ...draft, parentId: store.leafId, message: say("real") } as SessionEntry;
    store.importEntries([clash]);
    const second = previewStore(core);
    expect(second).not.toBe(first);
    expect(second.getBranch()).toEqual(store.getBranch());
    expect(second.getProjection().messages.at(-1)).toEqual(say("real"));
  });
});
