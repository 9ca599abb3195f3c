import { describe, expect, it } from "vitest";
import type { ExtensionApi } from "./create-extension-api";
import { createHookBus } from "./create-hook-bus";
import { defineExtension } from "./define-extension";
import { ExtensionError } from "./extension-error";
import type { HookErrorEvent } from "./hook-map";
import { installExtension } from "./install-extension";

interface Hooks {
  turn_end: { event: { turnIndex: number }; result: undefined };
}

describe("installExtension", () => {
  it("runs setup with an API that tags handlers with the extension name; uninstall removes them", async () => {
    const bus = createHookBus<Hooks>();
    const errors: HookErrorEvent[] = [];
    bus.on("hook_error", (event) => {
      errors.push(event);
    });
    const seen: number[] = [];
    const extension = defineExtension<ExtensionApi<Hooks>>({
      apiVersion: 1,
      name: "counter",
      setup(api) {
        expect(api.extensionId).toBe("counter");
        api.on("turn_end", (event) => {
          seen.push(event.turnIndex);
          if (event.turnIndex === 2) throw new Error("two");
        });
      },
    });
    const uninstall = await installExtension(bus, extension);
    await bus.emit("turn_end", { turnIndex: 1 });
    await bus.emit("turn_end", { turnIndex: 2 });
    expect(seen).toEqual([1, 2]);
    expect(errors.map((event) => event.extensionId)).toEqual(["counter"]);
    uninstall();
    uninstall();
    await bus.emit("turn_end", { turnIndex: 3 });
    expect(seen).toEqual([1, 2]);
    expect(bus.listenerCount("hook_error")).toBe(1);
  });

  it("lets the host extend the API", async () => {
    const bus = createHookBus<Hooks>();
    const greetings: string[] = [];
    const extension = defineExtension<ExtensionApi<Hooks> & { greet(text: string): void }>({
      apiVersion: 1,
      name: "greeter",
      setup(api) {
        api.greet(`hello from ${api.extensionId}`);
      },
    });
    await installExtension(bus, extension, {
      extendApi: (api) => ({ ...api, greet: (text: string) => greetings.push(text) }),
    });
    expect(greetings).toEqual(["hello from greeter"]);
  });

  it("rolls back handlers and throws EXTENSION_SETUP_FAILED when setup fails", async () => {
    const bus = createHookBus<Hooks>();
    const extension = defineExtension<ExtensionApi<Hooks>>({
      apiVersion: 1,
      name: "broken",
      async setup(api) {
        api.on("turn_end", () => {});
        throw new Error("missing config");
      },
    });
    const failure = await installExtension(bus, extension, { file: "/x/broken.ts" }).catch((error) => error);
    expect(ExtensionError.isInstance(failure)).toBe(true);
    expect(failure.code).toBe("EXTENSION_SETUP_FAILED");
    expect(failure.message).toBe('Extension "broken" (/x/broken.ts) failed during setup: missing config');
    expect(failure.file).toBe("/x/broken.ts");
    expect(bus.listenerCount("turn_end")).toBe(0);
  });
});

describe("installExtension: a setup that never finishes", () => {
  it("fails with EXTENSION_TIMEOUT, removes its handlers and ignores the ones it adds later", async () => {
    const bus = createHookBus<Hooks>();
    let lateApi: ExtensionApi<Hooks> | undefined;
    const extension = defineExtension<ExtensionApi<Hooks>>({
      apiVersion: 1,
      name: "stuck",
      setup(api) {
        api.on("turn_end", () => {});
        lateApi = api;
        return new Promise(() => {});
      },
    });
    const error = await installExtension(bus, extension, { file: "/x/stuck.mjs", timeoutMs: 100 }).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(ExtensionError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      code: "EXTENSION_TIMEOUT",
      extensionName: "stuck",
      file: "/x/stuck.mjs",
      timeoutMs: 100,
      message: 'Extension "stuck" (/x/stuck.mjs) did not finish setup within 100 ms',
    });
    expect(bus.listenerCount("turn_end")).toBe(0);
    lateApi?.on("turn_end", () => {});
    expect(bus.listenerCount("turn_end")).toBe(0);
  });

  it("keeps EXTENSION_SETUP_FAILED for a setup that throws synchronously", async () => {
    const bus = createHookBus<Hooks>();
    const extension = defineExtension<ExtensionApi<Hooks>>({
      apiVersion: 1,
      name: "thrower",
      setup() {
        throw new Error("boom");
      },
    });
    await expect(installExtension(bus, extension, { timeoutMs: 1000 })).rejects.toMatchObject({
      code: "EXTENSION_SETUP_FAILED",
    });
  });
});
