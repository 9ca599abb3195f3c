import { expect, it } from "vitest";

it("exports exactly the documented runtime names", async () => {
  expect(Object.keys(await import("./index")).sort()).toMatchInlineSnapshot(`
    [
      "CONTEXT_POLICY_NAMES",
      "DEFAULT_MAX_CONSECUTIVE_AUTO_COMPACTIONS",
      "RUNTIME_HOOK_NAMES",
      "RuntimeError",
      "SUPPORTED_PI_MEMBERS",
      "SettingsError",
      "contextPolicyExtension",
      "createAgentSession",
      "createCatalogueModelRegistry",
      "fitCompactionSettings",
      "loadSettings",
      "maskPlaceholder",
      "mergeSettings",
      "planMaskEdits",
      "readSettingsFile",
      "resolveArborHome",
      "resolveContextPolicySettings",
    ]
  `);
});
