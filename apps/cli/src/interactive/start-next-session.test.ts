import os from "node:os";
import { createSecretRedactor, getModel } from "@arbor/providers";
import { createScriptedProvider } from "@arbor/providers/testing";
import { createInMemorySessionStore } from "@arbor/session-store";
import { describe, expect, it } from "vitest";
import { buildSystemPrompt } from "../agent/build-system-prompt";
import type { AgentEnvironment, ModelBinding } from "../agent/prepare-agent";
import { PathGuard } from "../tools/path-guard";
import { startNextSession } from "./start-next-session";

const environment: AgentEnvironment = {
  env: {},
  cwd: os.tmpdir(),
  arborHome: os.tmpdir(),
  settings: {},
  unknownSettingsKeys: [],
  settingsKeysRead: new Set(),
  customModels: [],
  extensions: [],
  tools: [],
  toolGuard: new PathGuard({ cwd: os.tmpdir() }),
  thinkingLevel: undefined,
  options: {} as AgentEnvironment["options"],
  systemPrompt: buildSystemPrompt({ cwd: os.tmpdir() }),
  onIssue: () => {},
  redactor: createSecretRedactor(),
  mode: "interactive",
};

function binding(): ModelBinding {
  const model = getModel("anthropic", "claude-sonnet-4-6");
  return {
    resolved: { model, apiKeyEnv: "ANTHROPIC_API_KEY", apiKey: "k", keyOptional: false },
    provider: createScriptedProvider(),
  };
}

describe("startNextSession", () => {
  it("starts the session over the next store", async () => {
    const previous = { store: createInMemorySessionStore(), binding: binding() };
    const next = { store: createInMemorySessionStore(), binding: binding() };
    const started = await startNextSession(environment, next, previous, "new");
    expect(started.slot).toBe(next);
    expect(started.error).toBeUndefined();
    expect(started.session.store).toBe(next.store);
    await started.session.dispose();
  });

  it("goes back to the previous store when the next session cannot start, and says why", async () => {
    const previous = { store: createInMemorySessionStore(), binding: binding() };
    const next = { store: createInMemorySessionStore(), binding: binding() };
    const broken = { ...environment, settings: { extensionTimeoutMs: -1 } } as AgentEnvironment;
    // The settings are shared, so make only the first start fail: the second gets valid settings.
    let calls = 0;
    const flaky = new Proxy(broken, {
      get(target, key) {
        if (key === "settings") return calls++ === 0 ? target.settings : {};
        return Reflect.get(target, key);
      },
    });
    const started = await startNextSession(flaky, next, previous, "resume");
    expect(started.slot).toBe(previous);
    expect((started.error as { code?: string }).code).toBe("INVALID_ARGUMENT");
    expect(started.session.store).toBe(previous.store);
    await started.session.dispose();
  });
});
