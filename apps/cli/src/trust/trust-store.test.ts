import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { findSavedTrust, listSavedTrust, saveFolderTrust, trustStorePath } from "./trust-store";

let home: string;
beforeEach(() => {
  home = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "arbor-trust-store-")), "home");
});
afterEach(() => fs.rmSync(path.dirname(home), { recursive: true, force: true }));

describe("trust store", () => {
  it("saves decisions in a 0600 file under a 0700 home, replacing a folder's earlier decision", () => {
    saveFolderTrust(home, "/a/b", "trusted");
    saveFolderTrust(home, "/c", "untrusted");
    saveFolderTrust(home, "/a/b", "untrusted");
    expect(listSavedTrust(home)).toEqual([
      { folder: "/a/b", trust: "untrusted" },
      { folder: "/c", trust: "untrusted" },
    ]);
    expect(fs.statSync(trustStorePath(home)).mode & 0o777).toBe(0o600);
    expect(fs.statSync(home).mode & 0o777).toBe(0o700);
    expect(fs.readdirSync(home)).toEqual(["trusted-folders.json"]);
  });

  it("applies the decision of the folder itself, else of its nearest ancestor", () => {
    saveFolderTrust(home, "/work", "trusted");
    saveFolderTrust(home, "/work/clones", "untrusted");
    expect(findSavedTrust(home, "/work/mine/app")).toEqual({ folder: "/work", trust: "trusted" });
    expect(findSavedTrust(home, "/work/clones/x")).toEqual({ folder: "/work/clones", trust: "untrusted" });
    expect(findSavedTrust(home, "/work")).toEqual({ folder: "/work", trust: "trusted" });
    expect(findSavedTrust(home, "/elsewhere")).toBeUndefined();
    expect(findSavedTrust(home, "/workshop")).toBeUndefined();
  });

  it("finds nothing without a file, and an inherited key such as __proto__ is no decision", () => {
    expect(findSavedTrust(home, "/x")).toBeUndefined();
    expect(listSavedTrust(home)).toEqual([]);
    expect(findSavedTrust(home, "/__proto__")).toBeUndefined();
  });

  it.each([
    ["{ nope", /not valid JSON at line 1/],
    ['{"version": 2, "folders": {}}', /expected \{ "version": 1/],
    ['{"version": 1, "folders": {"rel/path": {"trust": "trusted"}}}', /folders\["rel\/path"\]/],
    ['{"version": 1, "folders": {"/x": {"trust": "yes"}}}', /folders\["\/x"\]/],
  ])("refuses an invalid file %j naming it, and leaves it unchanged", (content, pattern) => {
    fs.mkdirSync(home, { recursive: true });
    fs.writeFileSync(trustStorePath(home), content);
    const expected = expect.objectContaining({
      code: "CLI_TRUST_STORE_INVALID",
      message: expect.stringMatching(pattern),
    });
    expect(() => findSavedTrust(home, "/x")).toThrow(expected);
    expect(() => saveFolderTrust(home, "/x", "trusted")).toThrow(expected);
    expect(fs.readFileSync(trustStorePath(home), "utf8")).toBe(content);
    expect(fs.readdirSync(home)).toEqual(["trusted-folders.json"]);
  });
});
