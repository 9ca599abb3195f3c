import { describe, expect, it } from "vitest";
import { ArborError } from "../errors/arbor-error";
import { defineModel } from "../model/define-model";
import { createScriptedProvider } from "../testing/scripted-provider";
import { complete } from "./complete";
import type { Provider } from "./provider";

const model = defineModel({ provider: "p", id: "m", contextWindow: 100 });
const request = { model, messages: [{ role: "user" as const, content: "hi", timestamp: 1 }] };

describe("complete", () => {
  it("resolves the final message of a successful stream", async () => {
    const provider = createScriptedProvider([{ content: [{ type: "text", text: "done" }] }]);
    expect(await complete(provider, request)).toMatchObject({
      stopReason: "stop",
      content: [{ type: "text", text: "done" }],
    });
  });

  it("resolves the error message instead of rejecting", async () => {
    const provider = createScriptedProvider([{ error: "PROVIDER_SERVER_ERROR" }]);
    expect(await complete(provider, request)).toMatchObject({
      stopReason: "error",
      errorMessage: expect.stringContaining("500"),
    });
  });

  it("rejects when a provider breaks the protocol", async () => {
    const broken: Provider = {
      specificationVersion: "v1",
      name: "broken",
      async *stream() {
        yield { type: "start", partial: {} as never };
      },
    };
    await expect(complete(broken, request)).rejects.toThrow(ArborError);
  });
});
