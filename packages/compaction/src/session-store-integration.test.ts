/** The README flow on a real session file: estimate, prepare, summarize, append, compact again. */
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { defineModel } from "@arbor/providers";
import { createScriptedProvider } from "@arbor/providers/testing";
import { openSessionStore } from "@arbor/session-store";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FIXTURE_DIR } from "./internal/testing/load-fixture";
import { prepareCompaction } from "./prepare/prepare-compaction";
import { resolveCompactionSettings, shouldCompact } from "./settings/compaction-settings";
import { compact } from "./summary/compact";
import { estimateProjectedContextTokens } from "./tokens/estimate-projected-context-tokens";

let dir: string;
let file: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), "arbor-compaction-"));
  file = path.join(dir, "session.jsonl");
  copyFileSync(path.join(FIXTURE_DIR, "coding-session.jsonl"), file);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("compaction on a SessionStore", () => {
  it("compacts offline, then a second compaction extends the first", async () => {
    const store = openSessionStore(file);
    store.branch("ast00013");
    const settings = resolveCompactionSettings({ keepRecentTokens: 300 });
    const { tokens } = estimateProjectedContextTokens(store.getProjection(), store.getBranch());
    expect(shouldCompact(tokens, 20_000, settings)).toBe(true);
    const preparation = prepareCompaction(store.getBranch(), settings);
    if (!preparation) throw new Error("nothing to compact");
    const result = await compact(preparation);
    store.appendCompaction({ ...result, fromHook: false });
    store.close();

    const reopened = openSessionStore(file);
    const projection = reopened.getProjection();
    expect(projection.messages[1]).toMatchObject({ role: "compactionSummary", summary: result.summary });
    expect(projection.entries[1]?.sourceEntry.id).toBe("ast00011");
    expect(prepareCompaction(reopened.getBranch(), settings)).toBeUndefined();
    reopened.appendMessage({
      role: "user",
      content: "Now add ES2020 to the lib setting.",
      timestamp: Date.now(),
    });
    const next = prepareCompaction(reopened.getBranch(), resolveCompactionSettings({ keepRecentTokens: 0 }));
    expect(next?.previousSummary).toBe(result.summary);
    // Inherited from the first compaction's details, plus the write of src/format.ts kept by it.
    expect(next?.fileOps).toEqual({
      read: new Set(["src/format.ts"]),
      written: new Set(["src/format.ts"]),
      edited: new Set(["src/date.ts", "test/date.test.ts"]),
    });
    reopened.close();
  });

  it("appends nothing when the model summary fails", async () => {
    const store = openSessionStore(file);
    store.branch("ast00013");
    const before = store.getBranch().length;
    const preparation = prepareCompaction(
      store.getBranch(),
      resolveCompactionSettings({ keepRecentTokens: 300 }),
    );
    if (!preparation) throw new Error("nothing to compact");
    const provider = createScriptedProvider([
      { content: [{ type: "text", text: "half" }], stopReason: "length" },
    ]);
    const model = defineModel({
      id: "m",
      provider: "scripted",
      api: "anthropic-messages",
      contextWindow: 100_000,
    });
    await expect(
      compact(preparation, { provider, model }).then((result) =>
        store.appendCompaction({ ...result, fromHook: false }),
      ),
    ).rejects.toMatchObject({ code: "SUMMARY_TRUNCATED" });
    expect(store.getBranch()).toHaveLength(before);
    store.close();
    const reopened = openSessionStore(file);
    expect(reopened.getBranch("ast00013")).toHaveLength(before);
    expect(reopened.getBranch("ast00013").some((entry) => entry.type === "compaction")).toBe(false);
    reopened.close();
  });
});
