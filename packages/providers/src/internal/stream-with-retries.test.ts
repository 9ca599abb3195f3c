import { describe, expect, it } from "vitest";
import { collectEvents } from "../../test/support/collect-events";
import { ProviderError } from "../errors/provider-error";
import { defineModel } from "../model/define-model";
import type { ProviderEvent } from "../provider/provider-event";
import type { AttemptContext } from "./stream-with-retries";
import { streamWithRetries } from "./stream-with-retries";

const model = defineModel({ provider: "test", id: "m", contextWindow: 1000 });
const serverError = () => new ProviderError("PROVIDER_SERVER_ERROR", "boom", { status: 500 });

function run(
  attempts: Array<(context: AttemptContext) => AsyncIterable<ProviderEvent>>,
  signal?: AbortSignal,
) {
  let calls = 0;
  const stream = streamWithRetries({
    model,
    signal,
    retry: { maxRetries: 3, baseDelayMs: 1, jitter: 0 },
    runAttempt: (context) => {
      const attempt = attempts[calls++];
      if (!attempt) throw new Error("no more attempts");
      return attempt(context);
    },
    toError: (error) =>
      ProviderError.isInstance(error) ? error : new ProviderError("PROVIDER_NETWORK_ERROR", String(error)),
  });
  return { stream, calls: () => calls };
}

async function* succeed({ builder }: AttemptContext): AsyncGenerator<ProviderEvent> {
  const { index, event } = builder.openText();
  yield event;
  yield builder.appendText(index, "ok");
  yield* builder.finish("stop");
}

async function* failBeforeContent(): AsyncGenerator<ProviderEvent> {
  yield* [];
  throw serverError();
}

async function* failAfterContent({ builder }: AttemptContext): AsyncGenerator<ProviderEvent> {
  const { index, event } = builder.openText();
  yield event;
  yield builder.appendText(index, "half");
  throw serverError();
}

async function* endWithoutDone({ builder }: AttemptContext): AsyncGenerator<ProviderEvent> {
  yield builder.openText().event;
}

describe("streamWithRetries", () => {
  it("retries failures that happen before any content", async () => {
    const { stream, calls } = run([failBeforeContent, failBeforeContent, succeed]);
    const result = await collectEvents(stream);
    expect(result.types).toEqual(["start", "retry", "retry", "text-start", "text-delta", "text-end", "done"]);
    expect(result.message.content).toEqual([{ type: "text", text: "ok" }]);
    expect(calls()).toBe(3);
  });

  it("never retries once content was delivered, and keeps it", async () => {
    const { stream, calls } = run([failAfterContent, succeed]);
    const result = await collectEvents(stream);
    expect(result.error?.code).toBe("PROVIDER_SERVER_ERROR");
    expect(result.message).toMatchObject({
      stopReason: "error",
      errorMessage: "boom",
      content: [{ type: "text", text: "half" }],
    });
    expect(calls()).toBe(1);
  });

  it("reports a stream that ends without its final event as interrupted", async () => {
    const { stream } = run([endWithoutDone]);
    const result = await collectEvents(stream);
    expect(result.error?.code).toBe("PROVIDER_STREAM_INTERRUPTED");
  });

  it("stops after maxRetries", async () => {
    const { stream, calls } = run([
      failBeforeContent,
      failBeforeContent,
      failBeforeContent,
      failBeforeContent,
      succeed,
    ]);
    const result = await collectEvents(stream);
    expect(result.error?.code).toBe("PROVIDER_SERVER_ERROR");
    expect(calls()).toBe(4);
  });

  it("does not start an attempt when the signal already fired", async () => {
    const controller = new AbortController();
    controller.abort();
    const { stream, calls } = run([succeed], controller.signal);
    const result = await collectEvents(stream);
    expect(result.message.stopReason).toBe("aborted");
    expect(calls()).toBe(0);
  });
});
