import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import {
  errorReply,
  startWireServer,
  type TestLlmServer,
  textReply,
  type WireReply,
  type WireRoute,
} from "@arbor/providers/testing";
import { afterAll, beforeAll, describe, type ExpectStatic, it } from "vitest";
import { createHostileTally } from "../src/hostile-figures";
import { type BuiltCliRun, hasStackTrace, minimalEnv, runBuiltCli } from "../src/run-built-cli";

/**
 * Issue 11 §2: credentials never leave. Canary keys go through the built CLI and the official SDKs
 * to the wire-level test server, which fails in every way it can while echoing the key back whole,
 * in part and masked, or the CLI is pointed at a base URL carrying `user:password@`. Afterwards
 * stdout, stderr (text and `--json`), the session file and every other file the run left behind
 * must hold no 8-character run of the key (or of the URL password) and none of its masked forms.
 */
const tally = createHostileTally("credentials", "canary keys in provider failures");

interface Canary {
  api: "anthropic" | "openai";
  keyEnv: string;
  baseUrlEnv: string;
  key: string;
  args: string[];
}

const CANARIES: Canary[] = [
  {
    api: "anthropic",
    keyEnv: "ANTHROPIC_API_KEY",
    baseUrlEnv: "ANTHROPIC_BASE_URL",
    key: "sk-ant-api03-CANARYq7Zp2Lw9Xv4Nb8Tr1Ks6Hd3Fm5Jc0Gy-6655",
    args: ["--model", "claude-sonnet-4-6"],
  },
  {
    api: "openai",
    keyEnv: "OPENAI_API_KEY",
    baseUrlEnv: "OPENAI_BASE_URL",
    key: "sk-proj-CANARYw3Ec8Rv1Tb6Yn9Um2Io5Pa7Sd4Fg0Hj-6655",
    args: ["--provider", "openai", "--model", "gpt-4.1"],
  },
];
/** The password of the base URLs with userinfo (a secret of its own). */
const URL_PASSWORD = "CANARYpw-Lq8Zr3Xt6Vb1Nm4";

/** Every 8-character run of a secret. */
function windowsOf(secret: string): string[] {
  const runs: string[] = [];
  for (let i = 0; i + 8 <= secret.length; i++) runs.push(secret.slice(i, i + 8));
  return runs;
}

/** The masked forms providers and gateways echo. */
function maskedForms(key: string): string[] {
  return [
    `${key.slice(0, 3)}…${key.slice(-4)}`,
    `${key.slice(0, 5)}***${key.slice(-3)}`,
    `CANARY***${key.slice(-4)}`,
    `****${key.slice(-4)}`,
  ];
}

/** Where the run's secrets show up: one line per output or file and secret run found in it. */
function findLeaks(outputs: Record<string, string>, secrets: string[]): string[] {
  const needles = secrets.flatMap((secret) => [...windowsOf(secret), ...maskedForms(secret)]);
  const found: string[] = [];
  for (const [where, text] of Object.entries(outputs)) {
    const hit = needles.find((needle) => text.includes(needle));
    if (hit !== undefined) found.push(`${where}: ${JSON.stringify(hit)}`);
  }
  return found;
}

function filesUnder(root: string): string[] {
  if (!fs.existsSync(root)) return [];
  return fs.readdirSync(root, { withFileTypes: true, recursive: true }).flatMap((entry) => {
    const full = path.join(entry.parentPath, entry.name);
    return entry.isFile() ? [full] : [];
  });
}

/** A port nothing listens on. */
let closedPort: number;

beforeAll(async () => {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  closedPort = (probe.address() as net.AddressInfo).port;
  await new Promise((resolve) => probe.close(resolve));
});
afterAll(() => tally.report());

/** The servers of one test: each test has its own, so the tests can run concurrently. */
interface Servers {
  main: TestLlmServer;
  /** Expects another key: its own 401, in each route's real format (OpenAI masks the key). */
  strict: TestLlmServer;
}

/** Error envelope of the route, with `message` as the provider's text. */
function envelope(route: WireRoute, type: string, message: string): unknown {
  if (route === "anthropic-messages") return { type: "error", error: { type, message } };
  return { error: { message, type, param: null, code: type } };
}

function echoReply(
  status: number,
  type: string,
  message: string,
  headers?: Record<string, string>,
): WireReply {
  return errorReply(status, (route: WireRoute) => envelope(route, type, message), headers);
}

interface Scenario {
  name: string;
  /** Replies to script (one per attempt). */
  replies: (key: string) => WireReply[];
  /** Base URL to give the CLI instead of the server's (userinfo, a closed port). */
  baseUrl?: (canary: Canary, servers: Servers) => string;
  /** Pass the base URL with `--base-url` instead of the environment variable. */
  viaFlag?: boolean;
  /** What stderr (text mode) must mention, to show the failure path was taken. */
  expectStderr: RegExp;
}

const withUserinfo = (url: string) => url.replace("http://", `http://arbor-user:${URL_PASSWORD}@`);
const baseOf = (canary: Canary, server: TestLlmServer) =>
  canary.api === "anthropic" ? server.anthropicBaseUrl : server.openaiBaseUrl;

/** Retried failures (429, 5xx) are served on all three attempts, with a 1 ms retry-after. */
const ATTEMPTS = 3;

const SCENARIOS: Scenario[] = [
  {
    name: "401 from a server expecting another key (its own wording; OpenAI masks the key)",
    replies: () => [],
    baseUrl: (canary, servers) => baseOf(canary, servers.strict),
    expectStderr: /401/,
  },
  {
    name: "401 with the key echoed whole",
    replies: (key) => [echoReply(401, "authentication_error", `invalid x-api-key: ${key}`)],
    expectStderr: /401/,
  },
  {
    name: "401 with the key masked (sk-…abcd, sk-ab***xyz)",
    replies: (key) => [
      echoReply(
        401,
        "authentication_error",
        `Incorrect API key provided: ${key.slice(0, 3)}…${key.slice(-4)} (also seen as ${key.slice(0, 5)}***${key.slice(-3)}).`,
      ),
    ],
    expectStderr: /Incorrect API key provided/,
  },
  {
    name: "403 with a partial echo of the key",
    replies: (key) => [
      echoReply(403, "permission_error", `key ...${key.slice(10, 30)}... may not use this model`),
    ],
    expectStderr: /403/,
  },
  {
    name: "429 with the key masked as CANARY***6655, on every attempt",
    replies: (key) =>
      Array.from({ length: ATTEMPTS }, () =>
        echoReply(429, "rate_limit_error", `rate limit for key CANARY***${key.slice(-4)}`, {
          "retry-after-ms": "1",
        }),
      ),
    expectStderr: /429/,
  },
  {
    name: "500 with the key whole in the body, on every attempt",
    replies: (key) =>
      Array.from({ length: ATTEMPTS }, () =>
        echoReply(500, "api_error", `upstream said: Authorization: Bearer ${key}`, { "retry-after-ms": "1" }),
      ),
    expectStderr: /500/,
  },
  {
    name: "an error event inside the stream echoing the key",
    replies: (key) =>
      Array.from({ length: ATTEMPTS }, () =>
        textReply("partial answer here", {
          errorAfterEvents: 3,
          streamErrorMessage: `key ${key} overloaded`,
        }),
      ),
    expectStderr: /overloaded/,
  },
  {
    name: "userinfo in the base URL (environment variable)",
    replies: () => [],
    baseUrl: (canary, servers) => withUserinfo(baseOf(canary, servers.main)),
    expectStderr: /has credentials in it/,
  },
  {
    name: "userinfo in the base URL (--base-url)",
    replies: () => [],
    baseUrl: (canary, servers) => withUserinfo(baseOf(canary, servers.main)),
    viaFlag: true,
    expectStderr: /has credentials in it/,
  },
  {
    name: "refused connection",
    replies: () => [],
    baseUrl: (canary) => `http://127.0.0.1:${closedPort}${canary.api === "anthropic" ? "" : "/v1"}`,
    expectStderr: /connect|connection/i,
  },
];

/** One run of the built CLI in a fresh folder; returns where the secrets leaked (nowhere, we hope). */
async function runScenario(
  canary: Canary,
  scenario: Scenario,
  json: boolean,
  expect: ExpectStatic,
): Promise<string[]> {
  const main = await startWireServer();
  const strict = await startWireServer({ apiKey: "the-right-key-is-another-one" });
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "arbor-hostile-credentials-")));
  try {
    const project = path.join(dir, "project");
    fs.mkdirSync(project);
    main.enqueue(...scenario.replies(canary.key));
    const baseUrl = scenario.baseUrl?.(canary, { main, strict }) ?? baseOf(canary, main);
    const sessionFile = path.join(dir, "session.jsonl");
    const env = minimalEnv({
      HOME: dir,
      ARBOR_HOME: path.join(dir, "home"),
      [canary.keyEnv]: canary.key,
      [canary.baseUrlEnv]: scenario.viaFlag ? baseOf(canary, main) : baseUrl,
    });
    const args = [
      ...["-p", "hello", "--session", sessionFile, ...canary.args],
      ...(scenario.viaFlag ? ["--base-url", baseUrl] : []),
      ...(json ? ["--json"] : []),
    ];
    const run: BuiltCliRun = await runBuiltCli(args, { env, cwd: project });
    const outputs: Record<string, string> = { stdout: run.stdout, stderr: run.stderr };
    for (const file of filesUnder(dir)) outputs[path.relative(dir, file)] = fs.readFileSync(file, "utf8");
    const leaks = findLeaks(outputs, [canary.key, URL_PASSWORD]);
    const crashed = hasStackTrace(run.stderr);
    tally.count({ secretsLeaked: leaks.length > 0 ? 1 : 0, stackTraceCrashes: crashed ? 1 : 0 });
    expect(crashed).toBe(false);
    expect(run.timedOut).toBe(false);
    expect(run.code).toBe(1);
    if (!json) expect(run.stderr).toMatch(scenario.expectStderr);
    else expect(run.stdout).toContain('"stopReason":"error"');
    expect(fs.readFileSync(sessionFile, "utf8")).toContain('"stopReason":"error"');
    return leaks;
  } finally {
    await main.close();
    await strict.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe.each(CANARIES)("credentials never leave ($api SDK)", (canary) => {
  it.for(SCENARIOS)("$name: no secret in any output or file", async (scenario, { expect }) => {
    const [text, json] = await Promise.all([
      runScenario(canary, scenario, false, expect),
      runScenario(canary, scenario, true, expect),
    ]);
    expect({ text, json }).toEqual({ text: [], json: [] });
  });
});
