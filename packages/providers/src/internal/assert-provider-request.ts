import { ArborError } from "../errors/arbor-error";
import type { ProviderRequest } from "../provider/provider";

/**
 * Checks what a caller must get right before any request is made.
 *
 * @throws ArborError `PROVIDER_UNSUPPORTED_API` when the model's `api` is not one of `apis`, and
 *   `PROVIDER_INVALID_REQUEST` when `model` or `messages` is missing or malformed.
 */
export function assertProviderRequest(
  providerName: string,
  request: ProviderRequest,
  apis: readonly string[],
): void {
  const model = request?.model;
  if (!model || typeof model.id !== "string" || typeof model.api !== "string") {
    throw new ArborError(
      "PROVIDER_INVALID_REQUEST",
      `${providerName}.stream: request.model must be a Model descriptor`,
    );
  }
  if (!apis.includes(model.api)) {
    throw new ArborError(
      "PROVIDER_UNSUPPORTED_API",
      `${providerName}.stream: model "${model.provider}/${model.id}" uses api "${model.api}"; this provider serves ${apis.join(", ")}`,
    );
  }
  if (!Array.isArray(request.messages)) {
    throw new ArborError(
      "PROVIDER_INVALID_REQUEST",
      `${providerName}.stream: request.messages must be an array`,
    );
  }
}
