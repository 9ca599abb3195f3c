// A typed hook bus for your own app: notifications, an interceptor, an extension, error isolation.
import assert from "node:assert/strict";
import { createHookBus, defineExtension, type ExtensionApi, installExtension } from "@arbor/extensions";

interface AppHooks {
  // A notification: handlers return nothing.
  turn_end: { event: { turnIndex: number }; result: undefined };
  // An interceptor: handlers may cancel or replace the result.
  beforeCompact: { event: { tokens: number }; result: { cancel?: boolean } };
}

const bus = createHookBus<AppHooks>({ defaultTimeoutMs: 10_000 });
const failures: string[] = [];
bus.on("hook_error", ({ error }) => {
  failures.push(`${error.code}: ${error.message}`);
});

const guard = defineExtension<ExtensionApi<AppHooks>>({
  apiVersion: 1,
  name: "small-context-guard",
  setup(api) {
    api.on("beforeCompact", (event) => (event.tokens < 1000 ? { cancel: true } : undefined));
    api.on("turn_end", () => {
      throw new Error("a failing handler never breaks the caller");
    });
  },
});
const uninstall = await installExtension(bus, guard);

await bus.emit("turn_end", { turnIndex: 0 });
assert.equal(failures.length, 1); // reported as a hook_error event, not thrown

const small = await bus.intercept("beforeCompact", { tokens: 500 });
assert.deepEqual([small.cancelled, small.cancelledBy], [true, "small-context-guard"]);
const large = await bus.intercept("beforeCompact", { tokens: 50_000 });
assert.equal(large.cancelled, false);

uninstall();
console.log("extensions example: ok");
