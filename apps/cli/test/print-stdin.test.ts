import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startWireServer, type TestLlmServer, textReply } from "@arbor/providers/testing";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { assertCliBuilt } from "./helpers/cli-paths";
import { PtySession } from "./helpers/pty-session";
import { isolatedEnv, runCliProcess } from "./helpers/run-cli-process";

let server: TestLlmServer;
let dir: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  assertCliBuilt();
  server = await startWireServer({ apiKey: "test-key" });
});
afterAll(() => server.close());
beforeEach(() => {
  server.reset();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "arbor-stdin-"));
  env = isolatedEnv({
    HOME: dir,
    ARBOR_HOME: path.join(dir, "home"),
    ANTHROPIC_API_KEY: "test-key",
    ANTHROPIC_BASE_URL: server.anthropicBaseUrl,
  });
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

/** The text of the last user message the model received. */
function lastUserText(): string {
  const body = server.requests.at(-1)?.body as { messages: Array<{ role: string; content: unknown }> };
  const user = body.messages.filter((message) => message.role === "user").at(-1);
  const content = user?.content;
  if (typeof content === "string") return content;
  return (content as Array<{ type: string; text?: string }>).map((block) => block.text ?? "").join("");
}

describe("print mode reads piped input", () => {
  it("echo PROMPT | arbor -p: the piped text is the prompt", async () => {
    server.enqueue(textReply("It is a greeting."));
    const run = await runCliProcess(["-p", "--no-session"], { env, cwd: dir, input: "explain: hello\n" });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("It is a greeting.\n");
    expect(lastUserText()).toBe("explain: hello\n");
  });

  it("arbor -p PROMPT < file: the piped text is attached after the prompt as <stdin> context", async () => {
    server.enqueue(textReply("Two errors."));
    const log = "12:00 error a\n12:01 error b\n";
    const run = await runCliProcess(["-p", "summarize", "--no-session"], { env, cwd: dir, input: log });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("Two errors.\n");
    expect(lastUserText()).toBe(`summarize\n\n<stdin>\n${log}</stdin>`);
  });

  it("arbor -p PROMPT with an empty pipe sends the prompt alone", async () => {
    server.enqueue(textReply("ok"));
    const run = await runCliProcess(["-p", "hi", "--no-session"], { env, cwd: dir, input: "" });
    expect(run.code).toBe(0);
    expect(lastUserText()).toBe("hi");
  });

  it("-p with neither a prompt nor piped text is a usage error (exit 2), before any key is needed", async () => {
    const noKey = isolatedEnv({ HOME: dir, ARBOR_HOME: path.join(dir, "home") });
    const empty = await runCliProcess(["-p"], { env: noKey, cwd: dir, input: "" });
    expect(empty.code).toBe(2);
    expect(empty.stderr).toBe(
      'arbor: -p needs a prompt: the piped input was empty, and no PROMPT was given (arbor -p "PROMPT") (see arbor --help)\n',
    );
    // On a terminal nothing is read: the same usage error, at once.
    const tty = new PtySession(["-p"], { env: noKey, cwd: dir });
    try {
      await tty.waitFor('-p needs a prompt: arbor -p "PROMPT", or pipe one in');
      expect(await tty.exited).toBe(2);
    } finally {
      tty.kill();
    }
    expect(server.requests).toHaveLength(0);
    expect(fs.existsSync(path.join(dir, "home", "sessions"))).toBe(false);
  });

  it("refuses piped bytes that are not UTF-8 text, naming the offset", async () => {
    const child = await runCliProcess(["-p", "--no-session"], {
      env,
      cwd: dir,
      input: Buffer.from([0x61, 0x62, 0xff, 0x63]),
    });
    expect(child.code).toBe(1);
    expect(child.stderr).toContain("the piped input is not UTF-8 text (invalid byte at offset 2)");
    expect(server.requests).toHaveLength(0);
  });
});
