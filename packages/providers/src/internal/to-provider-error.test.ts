import { describe, expect, it } from "vitest";
import { toProviderError } from "./to-provider-error";

const context = { provider: "anthropic", secrets: ["secret-key-123"], responseStarted: false };

function undiciTermination(): Error {
  const cause = Object.assign(new Error("other side closed"), { code: "UND_ERR_SOCKET" });
  return new TypeError("terminated", { cause });
}

describe("toProviderError", () => {
  it("separates connection failures before and after the response started", () => {
    const refused = Object.assign(new Error("Connection error."), { name: "APIConnectionError" });
    expect(toProviderError(refused, context).code).toBe("PROVIDER_NETWORK_ERROR");
    expect(toProviderError(undiciTermination(), { ...context, responseStarted: true }).code).toBe(
      "PROVIDER_STREAM_INTERRUPTED",
    );
  });

  it("treats bugs and unknown failures as non-retryable", () => {
    const bug = new TypeError("Cannot read properties of undefined (reading 'x')");
    const error = toProviderError(bug, context);
    expect(error).toMatchObject({ code: "PROVIDER_INVALID_RESPONSE", isRetryable: false });
  });

  it("classifies SDK status errors from the captured raw body", () => {
    // The SDKs only read `body.error`; vLLM's legacy envelope puts the text at the top level.
    const sdkError = { status: 404, error: undefined, headers: new Headers() };
    const captured = {
      status: 404,
      headers: new Headers(),
      body: '{"object":"error","message":"The model `llama-9` does not exist.","type":"NotFoundError","code":404}',
    };
    const withBody = toProviderError(sdkError, { ...context, captured });
    expect(withBody).toMatchObject({ code: "PROVIDER_BAD_REQUEST", providerCode: "404" });
    expect(withBody.message).toContain("does not exist");
    expect(toProviderError(sdkError, context).message).toContain("(no body)");
  });

  it("scrubs secrets from transport messages", () => {
    const failure = new TypeError("fetch failed", { cause: new Error("connect to secret-key-123 refused") });
    expect(toProviderError(failure, context).message).not.toContain("secret-key-123");
  });
});
