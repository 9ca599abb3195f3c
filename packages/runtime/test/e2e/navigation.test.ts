import fs from "node:fs";
import { defineExtension } from "@arbor/extensions";
import { textReply } from "@arbor/providers/testing";
import type { SessionEntry } from "@arbor/session-store";
import { afterEach, describe, expect, it } from "vitest";
import type { RuntimeExtensionApi } from "../../src/extensions/runtime-extension-api";
import {
  closeHarnesses,
  conversationText,
  createHarness,
  type Harness,
  type HarnessOptions,
  scriptReplies,
} from "../helpers/harness";

afterEach(closeHarnesses);

/** u1 a1 u2 a2, leaf a2; returns the four entries. */
async function twoTurns(options: HarnessOptions = {}, summaries = [textReply("BRANCH-SUMMARY")]) {
  const h = await createHarness(options);
  scriptReplies(
    h.server,
    [textReply("first answer"), textReply("second answer"), textReply("third answer")],
    summaries,
  );
  await h.session.prompt("first question");
  await h.session.prompt("second question");
  const [u1, a1, u2, a2] = h.fileEntries() as [SessionEntry, SessionEntry, SessionEntry, SessionEntry];
  return { h, u1, a1, u2, a2 };
}

function last(h: Harness): SessionEntry {
  return h.fileEntries().at(-1) as SessionEntry;
}

describe("navigate with a branch summary (Anthropic SDK)", () => {
  it("to a user message: the summary becomes a child of its parent, from the old leaf", async () => {
    const { h, a1, u2, a2 } = await twoTurns();
    const result = await h.session.navigate(u2.id, { summarize: true });

    expect(result.cancelled).toBe(false);
    expect(result.editorText).toBe("second question");
    const summary = last(h);
    expect(summary).toMatchObject({
      type: "branch_summary",
      parentId: a1.id,
      fromId: a2.id,
      fromHook: false,
    });
    expect(summary.type === "branch_summary" && summary.summary).toContain("BRANCH-SUMMARY");
    expect(result.summaryEntry?.id).toBe(summary.id);
    expect(h.store.leafId).toBe(summary.id);
    expect(h.events.find((event) => event.type === "session_tree")).toMatchObject({
      newLeafId: summary.id,
      oldLeafId: a2.id,
      fromExtension: false,
    });
    // The target is an ancestor of the old leaf, so it is the common ancestor: only a2 is summarized.
    const summaryRequest = conversationText(h.summaryRequests()[0]);
    expect(summaryRequest).toContain("second answer");
    expect(summaryRequest).not.toContain("first question");

    await h.session.prompt("third question");
    const sent = conversationText(h.agentRequests().at(-1));
    expect(sent).toContain("BRANCH-SUMMARY");
    expect(sent).toContain("first answer");
    expect(sent).not.toContain("second question");
    expect(h.fileEntries().at(-2)).toMatchObject({ type: "message", parentId: summary.id });
  });

  it("to an assistant message with a label: the summary is its child and carries the label", async () => {
    const { h, a1, a2 } = await twoTurns();
    const result = await h.session.navigate(a1.id, { summarize: true, label: "checkpoint-a" });
    const entries = h.fileEntries();
    const summary = entries.at(-2) as SessionEntry;
    expect(summary).toMatchObject({ type: "branch_summary", parentId: a1.id, fromId: a2.id });
    expect(entries.at(-1)).toMatchObject({ type: "label", targetId: summary.id, label: "checkpoint-a" });
    expect(result.editorText).toBeUndefined();
    expect(h.store.getLabel(summary.id)).toBe("checkpoint-a");
  });

  it("to the first user message: the summary is a new root", async () => {
    const { h, u1, a2 } = await twoTurns();
    await h.session.navigate(u1.id, { summarize: true });
    expect(last(h)).toMatchObject({ type: "branch_summary", parentId: null, fromId: a2.id });
  });

  it("without summarize: writes nothing and moves the leaf", async () => {
    const { h, a1, u2 } = await twoTurns();
    const before = fs.readFileSync(h.file);
    const result = await h.session.navigate(u2.id);
    expect(result).toEqual({ cancelled: false, editorText: "second question" });
    expect(fs.readFileSync(h.file).equals(before)).toBe(true);
    expect(h.store.leafId).toBe(a1.id);
    expect(h.summaryRequests()).toHaveLength(0);
  });

  it("session_before_tree can cancel, or supply the summary", async () => {
    let mode: "cancel" | "supply" = "cancel";
    const ext = defineExtension<RuntimeExtensionApi>({
      apiVersion: 1,
      name: "tree-guard",
      setup(api) {
        api.on("session_before_tree", (event) =>
          mode === "cancel"
            ? { cancel: true }
            : {
                summary: {
                  summary: `custom summary of ${event.preparation.entriesToSummarize.length} entries`,
                },
              },
        );
      },
    });
    const { h, a1, u2 } = await twoTurns({ extensions: [ext] });
    const before = fs.readFileSync(h.file);
    expect(await h.session.navigate(u2.id, { summarize: true })).toEqual({ cancelled: true });
    expect(fs.readFileSync(h.file).equals(before)).toBe(true);
    mode = "supply";
    await h.session.navigate(u2.id, { summarize: true });
    expect(last(h)).toMatchObject({
      type: "branch_summary",
      parentId: a1.id,
      summary: "custom summary of 1 entries",
      fromHook: true,
    });
    expect(h.summaryRequests()).toHaveLength(0);
  });

  it("an unknown target is a typed error and changes nothing", async () => {
    const { h } = await twoTurns();
    await expect(h.session.navigate("nope1234")).rejects.toMatchObject({ code: "ENTRY_NOT_FOUND" });
  });
});
