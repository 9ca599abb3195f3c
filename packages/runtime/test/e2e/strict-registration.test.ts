import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { defineExtension, ExtensionError } from "@arbor/extensions";
import { textReply, toolCallReply } from "@arbor/providers/testing";
import { afterEach, describe, expect, it } from "vitest";
import { RUNTIME_HOOK_NAMES } from "../../src/events/runtime-hook-names";
import type { RuntimeExtensionApi } from "../../src/extensions/runtime-extension-api";
import { bigReadTool, closeHarnesses, createHarness, scriptReplies } from "../helpers/harness";

afterEach(closeHarnesses);

function registering(name: string) {
  return defineExtension<RuntimeExtensionApi>({
    apiVersion: 1,
    name: "typo",
    setup(api) {
      (api.on as (hook: string, handler: () => void) => void)(name, () => {});
    },
  });
}

async function installError(name: string): Promise<ExtensionError> {
  const failure = await createHarness({ extensions: [registering(name)] }).then(
    () => undefined,
    (error: unknown) => error,
  );
  if (!ExtensionError.isInstance(failure))
    throw new Error(`expected an ExtensionError, got ${String(failure)}`);
  return failure;
}

describe("api.on is strict", () => {
  it.each([
    ["turn-end", "turn_end"],
    ["agent-start", "agent_start"],
    ["tool-execution-end", "tool_execution_end"],
    ["sesion_before_compact", "session_before_compact"],
    ["agent_strat", "agent_start"],
    ["agent_befor_settle", "agent_before_settle"],
  ])("rejects %s with EXTENSION_UNKNOWN_HOOK naming %s", async (name, closest) => {
    const error = await installError(name);
    expect(error.code).toBe("EXTENSION_UNKNOWN_HOOK");
    expect(error.hookName).toBe(name);
    expect(error.closestHookName).toBe(closest);
    expect(error.extensionName).toBe("typo");
    expect(error.message).toContain(`unknown hook "${name}"; did you mean "${closest}"?`);
  });

  it("names the extension file in the error", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "arbor-strict-"));
    const file = path.join(dir, "typo.mjs");
    fs.writeFileSync(
      file,
      'export default { apiVersion: 1, name: "file-typo", setup(api) { api.on("turn-start", () => {}); } };\n',
    );
    try {
      const failure = await createHarness({ extensions: [file] }).catch((error: unknown) => error);
      expect(failure).toMatchObject({ code: "EXTENSION_UNKNOWN_HOOK", file, closestHookName: "turn_start" });
      expect((failure as Error).message).toContain(file);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("accepts every name in RUNTIME_HOOK_NAMES and hook_error, and each of pi's loop events fires", async () => {
    const seen = new Set<string>();
    const extension = defineExtension<RuntimeExtensionApi>({
      apiVersion: 1,
      name: "all",
      setup(api) {
        for (const name of [...RUNTIME_HOOK_NAMES, "hook_error" as const]) {
          (api.on as (hook: string, handler: () => void) => void)(name, () => {
            seen.add(name);
          });
        }
      },
    });
    const h = await createHarness({ extensions: [extension], tools: [bigReadTool(10)] });
    scriptReplies(h.server, [toolCallReply("read", { path: "a" }), textReply("done")]);
    await h.session.prompt("go");
    for (const name of [
      "session_start",
      "agent_start",
      "agent_end",
      "turn_start",
      "turn_end",
      "message_start",
      "message_update",
      "message_end",
      "tool_execution_start",
      "tool_execution_end",
      "context",
      "before_provider_request",
    ]) {
      expect(seen, name).toContain(name);
    }
    const turnStart = h.events.find((event) => event.type === "turn_start");
    expect(turnStart).toMatchObject({ type: "turn_start", turnIndex: 0, timestamp: expect.any(Number) });
    const update = h.events.find((event) => event.type === "message_update");
    expect(update).toHaveProperty("assistantMessageEvent.type");
  });
});
