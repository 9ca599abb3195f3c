import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { credentialOf, redactRequestHeaders } from "./redact-request-headers";
import { renderAnthropicReply } from "./render-anthropic-reply";
import { renderOpenAIChatReply } from "./render-openai-chat-reply";
import { renderOpenAIResponsesReply } from "./render-openai-responses-reply";
import { type RenderedReply, streamErrorEvent } from "./reply-parts";
import { type ReplyOutcome, sendEventStream, sendJson, waitUnlessClosed } from "./send-reply";
import type { WireReply, WireReplySpec, WireResponse, WireRoute } from "./wire-reply";

/** One request as the server saw it. Credentials are redacted; the body is parsed JSON when possible. */
export interface RecordedRequest {
  /** The API the path belongs to, or undefined for an unknown path. */
  route: WireRoute | undefined;
  method: string;
  path: string;
  headers: Record<string, string>;
  body: unknown;
  /** False when a key was configured and the request did not carry it. */
  authorized: boolean;
  /** How the reply ended; undefined while it is still being sent. */
  outcome?: ReplyOutcome;
}

/** Options of {@link createTestLlmServer}. */
export interface TestLlmServerOptions {
  /**
   * When set, requests must carry this key (`Authorization: Bearer`, `x-api-key` or `api-key`);
   * others get a 401 in the route's real format and consume no scripted reply.
   */
  apiKey?: string;
}

/** A local HTTP server speaking the Anthropic Messages and OpenAI Chat / Responses wire formats. */
export interface TestLlmServer {
  /** `http://127.0.0.1:<port>`; throws before `start()`. */
  readonly url: string;
  /** Base URL for the Anthropic SDK (no `/v1`). */
  readonly anthropicBaseUrl: string;
  /** Base URL for the OpenAI SDK (with `/v1`). */
  readonly openaiBaseUrl: string;
  /** Every request received, in arrival order. */
  readonly requests: readonly RecordedRequest[];
  /** Scripted replies not yet served. */
  readonly pending: number;
  /** Appends replies to the shared script; a request consumes the next one, whatever its route. */
  enqueue(...replies: WireReply[]): void;
  /** Appends replies for one route only; they are served before the shared script. */
  enqueueFor(route: WireRoute, ...replies: WireReply[]): void;
  /** Forgets the script and the recorded requests. */
  reset(): void;
  /** Listens on 127.0.0.1 with a free port. */
  start(): Promise<void>;
  /** Stops listening and drops open connections. */
  close(): Promise<void>;
}

const ROUTES: Record<string, WireRoute> = {
  "/messages": "anthropic-messages",
  "/chat/completions": "openai-chat",
  "/responses": "openai-responses",
};

function routeOf(path: string): WireRoute | undefined {
  const bare = (path.split("?")[0] ?? "").replace(/^\/v1(?=\/)/, "");
  return ROUTES[bare];
}

function errorEnvelope(route: WireRoute | undefined, type: string, message: string, code?: string): unknown {
  if (route === "anthropic-messages" || route === undefined)
    return { type: "error", error: { type, message } };
  return { error: { message, type, param: null, code: code ?? null } };
}

/** Masks a key the way OpenAI echoes it in 401 bodies (`sk-ab***xyz`). */
function maskKey(key: string | undefined): string {
  if (!key) return "(none)";
  return key.length <= 8 ? "***" : `${key.slice(0, 5)}***${key.slice(-3)}`;
}

async function readBody(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  if (text === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function render(
  route: WireRoute,
  reply: WireResponse,
  body: Record<string, unknown>,
  serial: number,
): RenderedReply {
  const model = reply.model ?? (typeof body.model === "string" ? body.model : "test-model");
  if (route === "anthropic-messages") return renderAnthropicReply(reply, `msg_${serial}`, model);
  if (route === "openai-chat") {
    const includeUsage =
      (body.stream_options as { include_usage?: boolean } | undefined)?.include_usage === true;
    return renderOpenAIChatReply(reply, `chatcmpl-${serial}`, model, includeUsage);
  }
  return renderOpenAIResponsesReply(reply, String(serial), model);
}

/**
 * Creates the test server (call `start()`, or use {@link startWireServer}). Routes: `POST
 * /v1/messages` (Anthropic), `POST /v1/chat/completions` and `POST /v1/responses` (OpenAI); the
 * `/v1` prefix is optional. Each request consumes the next scripted reply (its route's own queue
 * first, then the shared one). A response is streamed as SSE when the body has `stream: true`
 * (else sent as JSON), with optional per-event delays, an initial delay, a cut after N events, or
 * an error event after N events; an error reply is sent with its status, headers and body. Delays
 * stop as soon as the client disconnects. With an empty script the server answers 400 "no scripted
 * reply", so a missing script entry fails fast. Unknown paths get 404. Every request is recorded
 * (credentials redacted) with the way its reply ended.
 */
export function createTestLlmServer(options: TestLlmServerOptions = {}): TestLlmServer {
  const script: WireReply[] = [];
  const routeScripts = new Map<WireRoute, WireReply[]>();
  const requests: RecordedRequest[] = [];
  let server: Server | undefined;
  let baseUrl: string | undefined;
  let serial = 0;

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = request.url ?? "/";
    const body = await readBody(request);
    const credential = credentialOf(request.headers);
    const record: RecordedRequest = {
      route: routeOf(path),
      method: request.method ?? "GET",
      path,
      headers: redactRequestHeaders(request.headers, options.apiKey),
      body,
      authorized: options.apiKey === undefined || credential === options.apiKey,
    };
    requests.push(record);
    record.outcome = await reply(record, credential, response);
  }

  async function reply(
    record: RecordedRequest,
    credential: string | undefined,
    response: ServerResponse,
  ): Promise<ReplyOutcome> {
    const { route, path, body } = record;
    if (!route || record.method !== "POST") {
      const message = `test LLM server: no route for ${record.method} ${path}`;
      return sendJson(response, 404, errorEnvelope(route, "not_found_error", message));
    }
    if (!record.authorized) {
      const message =
        route === "anthropic-messages"
          ? "invalid x-api-key"
          : `Incorrect API key provided: ${maskKey(credential)}. You can find your API key in your account settings.`;
      return sendJson(
        response,
        401,
        errorEnvelope(route, "authentication_error", message, "invalid_api_key"),
      );
    }
    const next = routeScripts.get(route)?.shift() ?? script.shift();
    if (next === undefined) {
      const message = `test LLM server: no scripted reply left for POST ${path}`;
      return sendJson(response, 400, errorEnvelope(route, "invalid_request_error", message));
    }
    const spec: WireReplySpec = typeof next === "function" ? next({ route, body }) : next;
    if (spec.kind === "error") {
      const errorBody =
        typeof spec.body === "function" ? (spec.body as (route: WireRoute) => unknown)(route) : spec.body;
      return sendJson(response, spec.status, errorBody, spec.headers);
    }
    if (spec.kind === "raw-stream") {
      const events = spec.events.map((item) => ({
        ...(item.event === undefined ? {} : { event: item.event }),
        data: typeof item.data === "string" ? item.data : JSON.stringify(item.data),
      }));
      return sendEventStream(response, events, spec);
    }
    const requestBody = (typeof body === "object" && body !== null ? body : {}) as Record<string, unknown>;
    const rendered = render(route, spec, requestBody, ++serial);
    if (spec.errorAfterEvents !== undefined) {
      rendered.events = [
        ...rendered.events.slice(0, spec.errorAfterEvents),
        streamErrorEvent(route, spec.streamErrorMessage),
      ];
    }
    if (!(await waitUnlessClosed(response, spec.initialDelayMs ?? 0))) return "client-gone";
    if (requestBody.stream !== true) return sendJson(response, 200, rendered.json, spec.headers);
    return sendEventStream(response, rendered.events, {
      headers: spec.headers,
      eventDelayMs: spec.eventDelayMs,
      cutAfterEvents: spec.cutAfterEvents,
    });
  }

  return {
    get url() {
      if (!baseUrl) throw new Error("test LLM server: call start() first");
      return baseUrl;
    },
    get anthropicBaseUrl() {
      return this.url;
    },
    get openaiBaseUrl() {
      return `${this.url}/v1`;
    },
    get requests() {
      return requests;
    },
    get pending() {
      let count = script.length;
      for (const queue of routeScripts.values()) count += queue.length;
      return count;
    },
    enqueue(...replies) {
      script.push(...replies);
    },
    enqueueFor(route, ...replies) {
      const queue = routeScripts.get(route) ?? [];
      queue.push(...replies);
      routeScripts.set(route, queue);
    },
    reset() {
      script.length = 0;
      routeScripts.clear();
      requests.length = 0;
    },
    start() {
      return new Promise((resolve, reject) => {
        const created = createServer((request, response) => {
          handle(request, response).catch((error: unknown) => {
            if (!response.headersSent) sendJson(response, 500, { error: { message: String(error) } });
            else response.destroy();
          });
        });
        server = created;
        created.once("error", reject);
        created.listen(0, "127.0.0.1", () => {
          baseUrl = `http://127.0.0.1:${(created.address() as AddressInfo).port}`;
          resolve();
        });
      });
    },
    close() {
      return new Promise((resolve) => {
        if (!server) return resolve();
        server.closeAllConnections();
        server.close(() => resolve());
      });
    },
  };
}

/** Creates and starts a {@link TestLlmServer}. */
export async function startWireServer(options?: TestLlmServerOptions): Promise<TestLlmServer> {
  const server = createTestLlmServer(options);
  await server.start();
  return server;
}
