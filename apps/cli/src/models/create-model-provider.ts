import type { Provider } from "@arbor/providers";
import { CliError } from "../cli-error";
import type { ResolvedModel } from "./resolve-model";

/**
 * Creates the provider that serves a resolved model, loading only the SDK its API needs
 * (`@arbor/providers/anthropic` or `/openai`). The key is passed explicitly; the endpoint is the
 * model's `baseUrl` (or the SDK default).
 * @throws CliError `CLI_USAGE` for an API no adapter speaks.
 */
export async function createModelProvider(
  resolved: ResolvedModel,
  env: NodeJS.ProcessEnv,
): Promise<Provider> {
  const { model, apiKey } = resolved;
  const common = { ...(apiKey ? { apiKey } : {}), ...(model.baseUrl ? { baseUrl: model.baseUrl } : {}), env };
  if (model.api === "anthropic-messages") {
    const { createAnthropicProvider } = await import("@arbor/providers/anthropic");
    return createAnthropicProvider(common);
  }
  if (model.api === "openai-chat" || model.api === "openai-responses") {
    const { createOpenAIProvider } = await import("@arbor/providers/openai");
    return createOpenAIProvider(common);
  }
  throw new CliError("CLI_USAGE", `model ${model.provider}/${model.id}: no adapter for api "${model.api}"`);
}
