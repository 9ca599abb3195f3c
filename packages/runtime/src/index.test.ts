import { expect, it } from "vitest";

it("exports exactly the documented runtime names", async () => {
  expect(Object.keys(await import("./index")).sort()).toMatchInlineSnapshot(`
    [
      "DEFAULT_MAX_CONSECUTIVE_AUTO_COMPACTIONS",
      "RUNTIME_HOOK_NAMES",
      "RuntimeError",
      "SettingsError",
      "createAgentSession",
      "createCatalogueModelRegistry",
      "fitCompactionSettings",
      "loadSettings",
      "mergeSettings",
      "readSettingsFile",
      "resolveArborHome",
    ]
  `);
});
