import type { SessionEntry } from "@arbor/session-store";
import { describe, expect, it } from "vitest";
import { userPromptsSection } from "./user-prompts-section";

const user = (id: string, content: unknown) =>
  ({
    type: "message",
    id,
    parentId: null,
    timestamp: "",
    message: { role: "user", content, timestamp: 0 },
  }) as SessionEntry;
const assistant = (id: string) =>
  ({
    type: "message",
    id,
    parentId: null,
    timestamp: "",
    message: { role: "assistant", content: [{ type: "text", text: "ok" }], timestamp: 0 },
  }) as unknown as SessionEntry;

describe("userPromptsSection", () => {
  const branch = [
    user("u1", "fix issue 185-273, do not touch the changelog"),
    assistant("a1"),
    user("u2", [{ type: "text", text: "now line\ntwo" }]),
    assistant("a2"),
    user("u3", "kept verbatim anyway"),
  ];

  it("quotes the summarized prompts (before the first kept entry) verbatim, in order", () => {
    expect(userPromptsSection(branch, "u3", 10_000)).toBe(
      "\n\n## The user's prompts (verbatim)\n- fix issue 185-273, do not touch the changelog\n- now line\n  two",
    );
  });

  it("keeps the newest prompts within the budget, and nothing with a budget of 0", () => {
    expect(userPromptsSection(branch, "u3", 20)).toBe(
      "\n\n## The user's prompts (verbatim)\n- now line\n  two",
    );
    expect(userPromptsSection(branch, "u3", 0)).toBe("");
    expect(userPromptsSection(branch, "u1", 10_000)).toBe("");
  });
});
