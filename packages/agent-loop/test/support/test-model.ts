import { defineModel } from "@arbor/providers";

/** The model every loop test talks to through the scripted provider. */
export const testModel = defineModel({
  id: "scripted-model",
  provider: "scripted",
  api: "anthropic-messages",
  contextWindow: 100_000,
});
