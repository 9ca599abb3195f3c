import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { decideProjectTrust, ignoredProjectWarning, savedProjectTrust } from "./decide-project-trust";
import { findSavedTrust, saveFolderTrust } from "./trust-store";

let dir: string;
let home: string;
let project: string;
beforeEach(() => {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "arbor-trust-")));
  home = path.join(dir, "home");
  project = path.join(dir, "clone");
  fs.mkdirSync(path.join(project, ".arbor"), { recursive: true });
  fs.writeFileSync(path.join(project, ".arbor/settings.json"), JSON.stringify({ extensions: ["./x.mjs"] }));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const allNeeds = { needs: { models: true, extensions: true }, trustFlag: true };

describe("decideProjectTrust", () => {
  it("asks once in a folder with project configuration, and remembers either answer", async () => {
    const questions: string[] = [];
    const first = await decideProjectTrust({
      cwd: project,
      arborHome: home,
      ask: async (config) => {
        questions.push(config.folder);
        return "not-now";
      },
    });
    expect(first).toMatchObject({ trusted: false, source: "answer", decidedFor: project });
    const second = await decideProjectTrust({
      cwd: project,
      arborHome: home,
      ask: async () => {
        questions.push("again");
        return "trust";
      },
    });
    expect(second).toMatchObject({ trusted: false, source: "saved" });
    expect(questions).toEqual([project]);
    saveFolderTrust(home, project, "trusted");
    expect(savedProjectTrust({ cwd: project, arborHome: home })).toMatchObject({ trusted: true });
  });

  it("saves a trust answer for the canonical folder, reached through a symlink", async () => {
    const link = path.join(dir, "link");
    fs.symlinkSync(project, link);
    const decision = await decideProjectTrust({ cwd: link, arborHome: home, ask: async () => "trust" });
    expect(decision.trusted).toBe(true);
    expect(findSavedTrust(home, project)).toEqual({ folder: project, trust: "trusted" });
  });

  it("needs no decision (and asks nothing) in a folder without project configuration", async () => {
    const plain = path.join(dir, "plain");
    fs.mkdirSync(path.join(plain, ".arbor"), { recursive: true });
    const decision = await decideProjectTrust({
      cwd: plain,
      arborHome: home,
      ask: async () => {
        throw new Error("asked");
      },
    });
    expect(decision).toEqual({ trusted: false, source: "no-project-config", project: undefined });
    expect(ignoredProjectWarning(decision, allNeeds)).toBeUndefined();
  });

  it("treats the Arbor home's own folder as user configuration, not a project", () => {
    fs.mkdirSync(path.join(dir, ".arbor"));
    fs.writeFileSync(path.join(dir, ".arbor/settings.json"), "{}");
    expect(savedProjectTrust({ cwd: dir, arborHome: path.join(dir, ".arbor") }).source).toBe(
      "no-project-config",
    );
  });

  it("--trust-project trusts for this run and saves nothing; an untrusted decision is overridden", () => {
    saveFolderTrust(home, project, "untrusted");
    expect(savedProjectTrust({ cwd: project, arborHome: home, trustFlag: true })).toMatchObject({
      trusted: true,
      source: "flag",
    });
    expect(findSavedTrust(home, project)?.trust).toBe("untrusted");
  });

  it("without a way to ask, the folder is untrusted for the run and nothing is saved", async () => {
    const decision = await decideProjectTrust({ cwd: project, arborHome: home });
    expect(decision).toMatchObject({ trusted: false, source: "not-asked" });
    expect(fs.existsSync(home)).toBe(false);
  });
});

describe("ignoredProjectWarning", () => {
  it("names the folder, the files, the extensions and how to trust, on one line", () => {
    fs.writeFileSync(path.join(project, ".arbor/models.json"), "{}");
    const trust = savedProjectTrust({ cwd: project, arborHome: home });
    const warning = ignoredProjectWarning(trust, allNeeds);
    expect(warning).toBe(
      `arbor: warning: ignored the project configuration of ${project}, untrusted: .arbor/settings.json (extensions ./x.mjs), .arbor/models.json; trust the folder with \`arbor trust\` or --trust-project for this run\n`,
    );
    expect(
      ignoredProjectWarning(trust, { needs: { models: false, extensions: false }, trustFlag: false }),
    ).toBe(
      `arbor: warning: ignored the project configuration of ${project}, untrusted: .arbor/settings.json; trust the folder with \`arbor trust\`\n`,
    );
  });

  it("says which ancestor's decision applied, and is silent for a trusted folder", () => {
    saveFolderTrust(home, dir, "untrusted");
    const trust = savedProjectTrust({ cwd: project, arborHome: home });
    expect(ignoredProjectWarning(trust, allNeeds)).toContain(`not trusted (decided for ${dir})`);
    saveFolderTrust(home, project, "trusted");
    expect(
      ignoredProjectWarning(savedProjectTrust({ cwd: project, arborHome: home }), allNeeds),
    ).toBeUndefined();
  });

  it("mentions only what the command would read: an offline command and a models-only folder", () => {
    fs.rmSync(path.join(project, ".arbor/settings.json"));
    fs.writeFileSync(path.join(project, ".arbor/models.json"), "{}");
    const trust = savedProjectTrust({ cwd: project, arborHome: home });
    expect(
      ignoredProjectWarning(trust, { needs: { models: false, extensions: false }, trustFlag: false }),
    ).toBeUndefined();
  });
});
