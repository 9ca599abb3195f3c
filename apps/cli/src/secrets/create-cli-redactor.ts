import { createSecretRedactor, type SecretRedactor } from "@arbor/providers";

/** Variables whose values are API keys by the CLI's own convention (`<PROVIDER>_API_KEY`). */
const KEY_VARIABLE = /_API_KEY$/;
/** Variables that hold endpoints, whose userinfo (`user:password@`) is a secret. */
const URL_VARIABLE = /_BASE_URL$/;

/**
 * The redactor every line the CLI prints goes through: it knows the value of every `*_API_KEY`
 * environment variable and the password of every `*_BASE_URL` one from the start; the key and
 * endpoint of the model in use are added when a model is bound (a models file may name another
 * variable). It redacts URL userinfo, runs of 8 or more characters of a known secret, and masked
 * echoes of one (see `createSecretRedactor`).
 */
export function createCliRedactor(env: NodeJS.ProcessEnv): SecretRedactor {
  const redactor = createSecretRedactor();
  for (const [name, value] of Object.entries(env)) {
    if (KEY_VARIABLE.test(name)) redactor.add(value);
    else if (URL_VARIABLE.test(name)) redactor.addUrlCredentials(value);
  }
  return redactor;
}
