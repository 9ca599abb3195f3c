import { afterEach, beforeEach } from "vitest";
import { startWireServer, type TestLlmServer } from "../../src/testing/test-llm-server";

/** What {@link useWireServer} gives a test file. */
export interface WireServerFixture {
  /** The server of the running test (a fresh one per test). */
  readonly server: TestLlmServer;
  /** The JSON body of the last request the server received. */
  lastBody(): Record<string, unknown>;
}

/**
 * Starts a wire-level test server accepting `apiKey` before each test of the file and closes it after.
 * Call at the top level of a test file.
 */
export function useWireServer(apiKey: string): WireServerFixture {
  let current: TestLlmServer | undefined;
  beforeEach(async () => {
    current = await startWireServer({ apiKey });
  });
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });
  const fixture: WireServerFixture = {
    get server(): TestLlmServer {
      if (!current) throw new Error("useWireServer: no server outside a test");
      return current;
    },
    lastBody: () =>
      fixture.server.requests[fixture.server.requests.length - 1]?.body as Record<string, unknown>,
  };
  return fixture;
}
