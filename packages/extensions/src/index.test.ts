import { expect, it } from "vitest";

it("exports exactly the documented runtime names", async () => {
  expect(Object.keys(await import("./index")).sort()).toMatchInlineSnapshot(`
    [
      "DEFAULT_HOOK_TIMEOUT_MS",
      "EXTENSION_API_VERSION",
      "ExtensionError",
      "HookError",
      "copyPlainData",
      "createExtensionApi",
      "createHookBus",
      "defineExtension",
      "installExtension",
      "loadExtensionFromFile",
    ]
  `);
});
