import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { assertCliBuilt } from "./helpers/cli-paths";
import { PtySession } from "./helpers/pty-session";
import { isolatedEnv } from "./helpers/run-cli-process";

let dir: string;
let pty: PtySession | undefined;

beforeAll(() => assertCliBuilt());
beforeEach(() => {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "arbor-small-window-")));
  fs.mkdirSync(path.join(dir, "home"));
  fs.mkdirSync(path.join(dir, "project"));
  // The README's 8k model, in the user's own models file; no request is made in these tests.
  fs.writeFileSync(
    path.join(dir, "home/models.json"),
    JSON.stringify({
      models: [
        {
          id: "local-8k",
          provider: "openai-compatible",
          api: "openai-chat",
          baseUrl: "http://127.0.0.1:9/v1",
          contextWindow: 8192,
          maxTokens: 1024,
        },
      ],
    }),
  );
});
afterEach(() => {
  pty?.kill();
  pty = undefined;
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("compaction settings that do not fit the model (interactive)", () => {
  it("warns once at start and shows the effective values in /session; a large model shows the configured ones", async () => {
    pty = new PtySession(["--model", "local-8k"], {
      cwd: path.join(dir, "project"),
      env: isolatedEnv({ HOME: dir, ARBOR_HOME: path.join(dir, "home"), ANTHROPIC_API_KEY: "k" }),
    });
    let at = await pty.waitFor("› ");
    expect(pty.screen).toContain(
      "arbor: warning: compaction.reserveTokens 16,384 + keepRecentTokens 20,000 do not fit the 8,192-token context window of openai-compatible/local-8k; using 2,048 and 2,048 (compaction above 6,144 tokens)",
    );
    pty.sendLine("/session");
    at = await pty.waitFor(/Model +openai-compatible\/local-8k/, { from: at });
    expect(pty.screen).toMatch(
      /Compaction +reserveTokens 2,048, keepRecentTokens 2,048 \(scaled to fit the 8,192-token window; configured 16,384 and 20,000\)/,
    );
    expect(pty.screen).toMatch(/compaction above 6,144/);
    pty.sendLine("/model claude-sonnet-4-6");
    at = await pty.waitFor("Now using anthropic/claude-sonnet-4-6.", { from: at });
    pty.sendLine("/session");
    at = await pty.waitFor(/Model +anthropic\/claude-sonnet-4-6/, { from: at });
    expect(pty.screen.slice(at - 400)).toMatch(/Compaction +reserveTokens 16,384, keepRecentTokens 20,000\n/);
    pty.sendLine("/model local-8k");
    at = await pty.waitFor("Now using openai-compatible/local-8k.", { from: at });
    await pty.waitFor("do not fit the 8,192-token context window", { from: at });
    pty.type("\u0004");
    expect(await pty.exited).toBe(0);
  });
});
