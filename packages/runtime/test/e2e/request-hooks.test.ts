import { defineExtension } from "@arbor/extensions";
import { textReply } from "@arbor/providers/testing";
import { afterEach, describe, expect, it } from "vitest";
import type { RuntimeExtensionApi } from "../../src/extensions/runtime-extension-api";
import {
  closeHarnesses,
  conversationText,
  createHarness,
  scriptReplies,
  systemText,
} from "../helpers/harness";

afterEach(closeHarnesses);

describe("request hooks", () => {
  it("context: a handler's messages replace the next request's, system prompt kept; the session is unchanged", async () => {
    const seen: string[][] = [];
    const ext = defineExtension<RuntimeExtensionApi>({
      apiVersion: 1,
      name: "context-rewriter",
      setup(api) {
        api.on("context", (event) => {
          seen.push(event.messages.map((message) => message.role));
          return {
            messages: [
              ...event.messages,
              {
                role: "custom" as const,
                customType: "note",
                content: "INJECTED NOTE",
                display: false,
                timestamp: 1,
              },
            ],
          };
        });
      },
    });
    const h = await createHarness({ extensions: [ext], systemPrompt: "You are terse." });
    scriptReplies(h.server, [textReply("one"), textReply("two")]);
    await h.session.prompt("first");
    await h.session.prompt("second");

    expect(seen).toEqual([["user"], ["user", "assistant", "user"]]);
    const [first, second] = h.agentRequests();
    expect(conversationText(first)).toContain("INJECTED NOTE");
    expect(systemText(first?.body)).toContain("You are terse.");
    // The injected note of request 1 is not in the session, so request 2 has only its own.
    expect(conversationText(second).split("INJECTED NOTE")).toHaveLength(2);
    expect(JSON.stringify(h.fileEntries())).not.toContain("INJECTED NOTE");
  });

  it("context: in-place edits count too", async () => {
    const ext = defineExtension<RuntimeExtensionApi>({
      apiVersion: 1,
      name: "in-place",
      setup(api) {
        api.on("context", (event) => {
          const first = event.messages[0];
          if (first?.role === "user") first.content = "REWRITTEN PROMPT";
          return undefined;
        });
      },
    });
    const h = await createHarness({ extensions: [ext] });
    scriptReplies(h.server, [textReply("ok")]);
    await h.session.prompt("original prompt");
    expect(conversationText(h.agentRequests()[0])).toContain("REWRITTEN PROMPT");
    expect(conversationText(h.agentRequests()[0])).not.toContain("original prompt");
    expect(JSON.stringify(h.fileEntries())).toContain("original prompt");
  });

  it("before_provider_request: sees the exact request and may replace it (not its model)", async () => {
    const models: string[] = [];
    const ext = defineExtension<RuntimeExtensionApi>({
      apiVersion: 1,
      name: "request-tagger",
      setup(api) {
        api.on("before_provider_request", (event) => {
          models.push(event.request.model.id);
          return {
            request: {
              ...event.request,
              model: { ...event.request.model, id: "ignored-model" },
              systemPrompt: `${event.request.systemPrompt ?? ""}\nTAGGED`,
            },
          };
        });
      },
    });
    const h = await createHarness({ extensions: [ext], systemPrompt: "Base prompt." });
    scriptReplies(h.server, [textReply("ok")]);
    await h.session.prompt("hello");
    expect(models).toEqual(["claude-test"]);
    const body = h.agentRequests()[0]?.body as { model: string };
    expect(systemText(body)).toContain("TAGGED");
    expect(body.model).toBe("claude-test");
  });
});
