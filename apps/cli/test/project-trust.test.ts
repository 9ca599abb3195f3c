import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { assertCliBuilt } from "./helpers/cli-paths";
import { PtySession } from "./helpers/pty-session";
import { isolatedEnv, runCliProcess } from "./helpers/run-cli-process";

let dir: string;
let project: string;
let home: string;
let marker: string;
let pty: PtySession | undefined;

beforeAll(() => assertCliBuilt());
beforeEach(() => {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "arbor-trust-tty-")));
  project = path.join(dir, "clone");
  home = path.join(dir, "home");
  marker = path.join(dir, "extension-ran");
  fs.mkdirSync(path.join(project, ".arbor"), { recursive: true });
  // Writes the marker as soon as it is imported: its code must not run in an untrusted folder.
  fs.writeFileSync(
    path.join(project, ".arbor/marker.mjs"),
    `import { appendFileSync } from "node:fs";
appendFileSync(${JSON.stringify(marker)}, "imported\\n");
export default { apiVersion: 1, name: "marker", setup() {} };
`,
  );
  fs.writeFileSync(
    path.join(project, ".arbor/settings.json"),
    JSON.stringify({ extensions: ["./marker.mjs"] }),
  );
});
afterEach(() => {
  pty?.kill();
  pty = undefined;
  fs.rmSync(dir, { recursive: true, force: true });
});

/** No model is called: the tests only start and quit. */
const env = () => isolatedEnv({ HOME: dir, ARBOR_HOME: home, ANTHROPIC_API_KEY: "test-key" });

function start(): PtySession {
  pty = new PtySession([], { cwd: project, env: env() });
  return pty;
}

async function quit(tty: PtySession): Promise<void> {
  tty.type("\u0004");
  expect(await tty.exited).toBe(0);
}

describe("the interactive trust question", () => {
  it("asks once; 'not now' is remembered and the extension never runs", async () => {
    const tty = start();
    let at = await tty.waitFor("Trust this folder? [t]rust / [N]ot now");
    expect(tty.screen).toContain(
      `This folder has its own arbor configuration: .arbor/settings.json (extensions ./marker.mjs) in ${project}.`,
    );
    tty.sendLine("n");
    at = await tty.waitFor("› ", { from: at });
    expect(tty.screen).toContain(
      `arbor: warning: ignored the project configuration of ${project}, not trusted: .arbor/settings.json (extensions ./marker.mjs); trust the folder with \`arbor trust\` or --trust-project for this run`,
    );
    await quit(tty);
    expect(fs.existsSync(marker)).toBe(false);

    const again = start();
    await again.waitFor("› ");
    expect(again.screen).not.toContain("Trust this folder?");
    await quit(again);
    expect(fs.existsSync(marker)).toBe(false);
    expect(JSON.parse(fs.readFileSync(path.join(home, "trusted-folders.json"), "utf8")).folders).toEqual({
      [project]: { trust: "untrusted", decidedAt: expect.any(String) },
    });
  });

  it("'trust' loads the extension now and on later starts, without asking again", async () => {
    const tty = start();
    await tty.waitFor("Trust this folder?");
    tty.sendLine("t");
    await tty.waitFor("› ");
    await quit(tty);
    expect(fs.readFileSync(marker, "utf8")).toBe("imported\n");

    const again = start();
    await again.waitFor("› ");
    expect(again.screen).not.toContain("Trust this folder?");
    await quit(again);
    expect(fs.readFileSync(marker, "utf8")).toBe("imported\nimported\n");
  });

  it("does not ask after `arbor trust` or `arbor untrust`", async () => {
    const untrust = await runCliProcess(["untrust"], { cwd: project, env: env() });
    expect(untrust.stdout).toBe(
      `Not trusting ${project} and the folders below it: arbor ignores their project configuration (it has .arbor/settings.json (extensions ./marker.mjs)).\n`,
    );
    const tty = start();
    await tty.waitFor("› ");
    expect(tty.screen).not.toContain("Trust this folder?");
    await quit(tty);
    expect(fs.existsSync(marker)).toBe(false);

    const trust = await runCliProcess(["trust", project], { cwd: dir, env: env() });
    expect(trust.code).toBe(0);
    const again = start();
    await again.waitFor("› ");
    expect(again.screen).not.toContain("Trust this folder?");
    await quit(again);
    expect(fs.existsSync(marker)).toBe(true);
  });
});
