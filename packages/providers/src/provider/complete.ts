import { ArborError } from "../errors/arbor-error";
import type { AssistantMessage } from "../message";
import type { Provider, ProviderRequest, StreamOptions } from "./provider";

/**
 * Runs one request to completion and resolves the final assistant message: the `done` message, or
 * the `error` message (stop reason `"error"` / `"aborted"`, with `errorMessage` and any partial
 * content). Does not reject for model, network or abort failures; check `stopReason`.
 *
 * @throws whatever `provider.stream` throws for programmer errors, and an `ArborError`
 *   `PROVIDER_PROTOCOL_VIOLATION` when the stream ends without a final event (a broken provider).
 */
export async function complete(
  provider: Provider,
  request: ProviderRequest,
  options?: StreamOptions,
): Promise<AssistantMessage> {
  for await (const event of provider.stream(request, options)) {
    if (event.type === "done" || event.type === "error") return event.message;
  }
  throw new ArborError(
    "PROVIDER_PROTOCOL_VIOLATION",
    `complete: provider "${provider.name}" ended its stream without a done or error event`,
  );
}
