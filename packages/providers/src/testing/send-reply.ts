import type { ServerResponse } from "node:http";
import type { SseEvent } from "./reply-parts";

/** Resolves after `ms`, or as soon as `response` closes (client gone); true when still open. */
export function waitUnlessClosed(response: ServerResponse, ms: number): Promise<boolean> {
  if (response.destroyed || response.writableEnded) return Promise.resolve(false);
  if (ms <= 0) return Promise.resolve(true);
  return new Promise((resolve) => {
    const onClose = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      response.off("close", onClose);
      resolve(!response.destroyed);
    }, ms);
    response.once("close", onClose);
  });
}

function formatEvent(event: SseEvent): string {
  return `${event.event === undefined ? "" : `event: ${event.event}\n`}data: ${event.data}\n\n`;
}

/** How a reply ended: fully sent, cut on purpose, or abandoned because the client disconnected. */
export type ReplyOutcome = "sent" | "cut" | "client-gone";

/** Options of {@link sendEventStream}. */
export interface SendEventStreamOptions {
  headers?: Record<string, string>;
  eventDelayMs?: number;
  /** Destroy the socket after this many events (a stream cut mid-way). */
  cutAfterEvents?: number;
}

/**
 * Writes an SSE response event by event, waiting `eventDelayMs` before each one and stopping as
 * soon as the client disconnects. With `cutAfterEvents`, the socket is destroyed once that many
 * events are flushed, without ending the chunked body, as a dropped connection would.
 */
export async function sendEventStream(
  response: ServerResponse,
  events: SseEvent[],
  options: SendEventStreamOptions,
): Promise<ReplyOutcome> {
  response.writeHead(200, {
    "content-type": "text/event-stream",
    "cache-control": "no-cache",
    connection: "keep-alive",
    ...options.headers,
  });
  response.flushHeaders();
  const cut = options.cutAfterEvents;
  if (cut !== undefined && cut <= 0) {
    response.socket?.destroy();
    return "cut";
  }
  for (let index = 0; index < events.length; index++) {
    if (!(await waitUnlessClosed(response, options.eventDelayMs ?? 0))) return "client-gone";
    const text = formatEvent(events[index] as SseEvent);
    if (cut !== undefined && index + 1 >= cut) {
      response.write(text, () => response.socket?.destroy());
      return "cut";
    }
    response.write(text);
  }
  response.end();
  return "sent";
}

/** Writes a JSON response (a string body is sent as plain text). */
export function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers?: Record<string, string>,
): ReplyOutcome {
  const text = typeof body === "string" ? body : JSON.stringify(body);
  const contentType = typeof body === "string" ? "text/plain" : "application/json";
  response.writeHead(status, { "content-type": contentType, ...headers });
  response.end(text);
  return "sent";
}
