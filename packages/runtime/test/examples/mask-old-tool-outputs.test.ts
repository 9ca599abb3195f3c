import type { WireReply } from "@arbor/providers/testing";
import { textReply, toolCallReply } from "@arbor/providers/testing";
import { afterEach, describe, expect, it } from "vitest";
import {
  bigReadTool,
  closeHarnesses,
  conversationText,
  createHarness,
  type Harness,
  scriptReplies,
} from "../helpers/harness";
import { examplePath } from "./example-paths";

afterEach(closeHarnesses);

const file = examplePath("mask-old-tool-outputs.ts");

/** A reply whose reported input tokens are what the server actually received (chars / 4). */
function measured(
  reply: (usage: { input: number; output: number }) => ReturnType<typeof textReply>,
): WireReply {
  return ({ body }) => reply({ input: Math.ceil(JSON.stringify(body).length / 4), output: 10 });
}

/**
 * Threshold 30000 tokens. Four tool calls each return ~10000 tokens; without masking the third
 * result pushes the context over the threshold and the session compacts.
 */
async function readFourFiles(extensions: string[]): Promise<Harness> {
  const h = await createHarness({
    extensions,
    tools: [bigReadTool(40_000)],
    settings: {
      compaction: { reserveTokens: 10_000, keepRecentTokens: 4000 },
      maskToolOutputs: { startRatio: 0.5, keepRecent: 1, minChars: 1000 },
    },
  });
  scriptReplies(
    h.server,
    [
      ...["a.txt", "b.txt", "c.txt", "d.txt"].map((name) =>
        measured((usage) => toolCallReply("read", { path: name }, { usage })),
      ),
      measured((usage) => textReply("read them all", { usage })),
    ],
    [textReply("SUMMARY"), textReply("PREFIX")],
  );
  const result = await h.session.prompt("read a.txt, b.txt, c.txt and d.txt");
  expect(result.error).toBeUndefined();
  return h;
}

describe("examples/extensions/mask-old-tool-outputs.ts", { timeout: 30_000 }, () => {
  it("without it, the same work crosses the threshold and needs a summary (control)", async () => {
    const h = await readFourFiles([]);
    expect(h.fileEntries().some((entry) => entry.type === "compaction")).toBe(true);
    expect(h.summaryRequests().length).toBeGreaterThanOrEqual(1);
  });

  it("masks old large outputs with context edits, so no summary is needed", async () => {
    const h = await readFourFiles([file]);
    const entries = h.fileEntries();
    expect(entries.some((entry) => entry.type === "compaction")).toBe(false);
    expect(h.summaryRequests()).toHaveLength(0);

    const edits = entries.filter((entry) => entry.type === "context_edit");
    expect(edits.length).toBeGreaterThanOrEqual(2);
    const byId = new Map(entries.map((entry) => [entry.id, entry]));
    for (const edit of edits) {
      const target = edit.type === "context_edit" ? byId.get(edit.targetId) : undefined;
      expect(target?.type === "message" && target.message.role).toBe("toolResult");
    }
    const last = conversationText(h.agentRequests().at(-1));
    expect(last).toContain("tool output masked");
    expect(last).not.toContain("contents of a.txt");
    expect(last).toContain("contents of d.txt");
    // The history keeps every output.
    const raw = JSON.stringify(entries);
    for (const name of ["a.txt", "b.txt", "c.txt", "d.txt"]) expect(raw).toContain(`contents of ${name}`);
  });
});
