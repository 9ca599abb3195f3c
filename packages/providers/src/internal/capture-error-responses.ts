/** An error response as it came off the wire. */
export interface CapturedResponse {
  status: number;
  headers: Headers;
  /** Raw body text (SDKs drop bodies that do not use their own envelope). */
  body: string;
}

/** A `fetch` that remembers the last error response it saw. */
export interface CapturingFetch {
  fetch: typeof fetch;
  /** The last non-2xx response, if any. */
  readonly last: CapturedResponse | undefined;
}

/**
 * Wraps `fetch` so that the raw body of every non-2xx response is kept for error classification.
 * The SDK still receives the untouched response (the body is read from a clone). Request headers,
 * and so API keys, are never looked at or stored.
 */
export function captureErrorResponses(baseFetch: typeof fetch = fetch): CapturingFetch {
  let last: CapturedResponse | undefined;
  const wrapped = async (input: Parameters<typeof fetch>[0], init?: Parameters<typeof fetch>[1]) => {
    const response = await baseFetch(input, init);
    if (!response.ok) {
      const body = await response
        .clone()
        .text()
        .catch(() => "");
      last = { status: response.status, headers: response.headers, body };
    }
    return response;
  };
  return {
    fetch: wrapped as typeof fetch,
    get last() {
      return last;
    },
  };
}
