import { expect, it } from "vitest";

it("exports exactly these runtime names", async () => {
  const surface = Object.keys(await import("./index")).sort();
  expect(surface).toMatchInlineSnapshot(`
    [
      "CURRENT_SESSION_VERSION",
      "SESSION_ENTRY_TYPES",
      "SessionStorageError",
      "SessionStore",
      "SessionStoreError",
      "VERSION",
      "buildContextEntries",
      "buildSessionPath",
      "buildSessionProjection",
      "collectContextEdits",
      "createInMemorySessionStore",
      "createJsonlStorage",
      "createMemoryStorage",
      "createSessionStore",
      "getLatestCompactionEntry",
      "getSessionContextSettings",
      "isUnknownEntry",
      "migrateSessionEntries",
      "migrateV1ToV2",
      "migrateV2ToV3",
      "openSessionStore",
      "projectContextEntries",
      "projectContextEntry",
      "readSessionVersion",
      "selectContextEntries",
      "sessionEntryToContextMessages",
    ]
  `);
});

it("VERSION is the version in package.json", async () => {
  const { VERSION } = await import("./index");
  const manifest = await import("../package.json");
  expect(VERSION).toBe(manifest.version);
  expect(VERSION).toMatch(/^\d+\.\d+\.\d+/);
});
