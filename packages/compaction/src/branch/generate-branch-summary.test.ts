import { defineModel } from "@arbor/providers";
import { createAnthropicProvider } from "@arbor/providers/anthropic";
import { startWireServer, type TestLlmServer, textReply } from "@arbor/providers/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadFixture } from "../internal/testing/load-fixture";
import { BRANCH_SUMMARY_PREAMBLE } from "../summary/summary-prompts";
import { collectEntriesForBranchSummary } from "./collect-entries-for-branch-summary";
import { EMPTY_BRANCH_SUMMARY, generateBranchSummary } from "./generate-branch-summary";

const KEY = "sk-test-branch-0123456789";
const model = defineModel({
  id: "claude-test",
  provider: "anthropic",
  api: "anthropic-messages",
  contextWindow: 200_000,
  maxTokens: 8192,
});
let server: TestLlmServer;
beforeEach(async () => {
  server = await startWireServer({ apiKey: KEY });
});
afterEach(async () => {
  await server.close();
});

const session = loadFixture("coding-session.jsonl");
// Leaving the main line (leaf ast00013) for the alternative branch (ast000b3).
const { entries } = collectEntriesForBranchSummary(session, "ast00013", "ast000b3");

function prompt(): string {
  const body = server.requests[0]?.body as { messages: Array<{ content: Array<{ text: string }> | string }> };
  const content = body.messages[0]?.content;
  return typeof content === "string" ? content : (content?.map((block) => block.text).join("") ?? "");
}

describe("generateBranchSummary", () => {
  it("summarizes the abandoned branch through the SDK, without tool results, with file lists", async () => {
    server.enqueue(
      textReply("## Goal\nAdd a leap-year test and refactor formatDate.", {
        usage: { input: 3000, output: 80 },
      }),
    );
    const provider = createAnthropicProvider({ apiKey: KEY, baseUrl: server.anthropicBaseUrl, env: {} });
    const result = await generateBranchSummary(entries, {
      provider,
      model,
      retry: { maxRetries: 0 },
      customInstructions: "tests",
    });
    expect(prompt()).toContain("[User]: Also add a test for leap years");
    expect(prompt()).not.toContain("[Tool result]");
    expect(prompt()).toContain("branch of the session that the user is leaving");
    expect(prompt().endsWith("Give special attention to: tests")).toBe(true);
    expect(JSON.stringify(server.requests[0]?.body)).not.toContain("cache_control");
    expect(result.summarizer).toBe("model");
    expect(result.usage).toMatchObject({ input: 3000, output: 80 });
    expect(result.modifiedFiles).toEqual(["src/format.ts", "test/date.test.ts"]);
    expect(result.readFiles).toEqual([]);
    expect(result.summary).toBe(
      `${BRANCH_SUMMARY_PREAMBLE}## Goal\nAdd a leap-year test and refactor formatDate.\n\n<modified-files>\nsrc/format.ts\ntest/date.test.ts\n</modified-files>`,
    );
  });

  it("uses the custom instructions alone with replaceInstructions", async () => {
    server.enqueue(textReply("Short."));
    const provider = createAnthropicProvider({ apiKey: KEY, baseUrl: server.anthropicBaseUrl, env: {} });
    await generateBranchSummary(entries, {
      provider,
      model,
      customInstructions: "One sentence only.",
      replaceInstructions: true,
    });
    expect(prompt().endsWith("</conversation>\n\nOne sentence only.")).toBe(true);
  });

  it("writes the summary offline without a model", async () => {
    const result = await generateBranchSummary(entries);
    expect(result.summarizer).toBe("offline");
    expect(
      result.summary.startsWith(`${BRANCH_SUMMARY_PREAMBLE}## Goal\n- Also add a test for leap years`),
    ).toBe(true);
    // Branch summaries skip tool results (as pi does), so the failure is known from the assistant's words.
    expect(result.summary).toContain('Pick up from the last assistant message: "Type checking fails: TS2304');
    expect(result.summary.endsWith("</modified-files>")).toBe(true);
  });

  it("says there is nothing to summarize for a branch without messages", async () => {
    const labelOnly = session.entries.filter((entry) => entry.id === "lbl00001");
    expect(await generateBranchSummary(labelOnly)).toEqual({
      summary: EMPTY_BRANCH_SUMMARY,
      readFiles: [],
      modifiedFiles: [],
      summarizer: "none",
    });
  });
});
