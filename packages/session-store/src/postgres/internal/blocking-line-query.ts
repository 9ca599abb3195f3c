import { createRequire } from "node:module";
import { MessageChannel, type MessagePort, receiveMessageOnPort, Worker } from "node:worker_threads";

/**
 * The worker's code (CommonJS, evaluated): one `pg` client of its own, connected on the first
 * request; each request runs one query and posts its rows (or the error's message) back on the
 * port, then wakes the waiting thread through the shared flag.
 */
const WORKER_SOURCE = `
const { workerData } = require("node:worker_threads");
const pg = require(workerData.pgPath);
const { port, flag, config, sql } = workerData;
const signal = new Int32Array(flag);
let client;
port.on("message", async (values) => {
  let reply;
  try {
    if (client === undefined) {
      client = new pg.Client(config);
      client.on("error", () => {});
      await client.connect();
    }
    reply = { rows: (await client.query(sql, values)).rows };
  } catch (error) {
    reply = { error: String((error && error.message) || error) };
    if (client !== undefined) client.end().catch(() => {});
    client = undefined;
  }
  port.postMessage(reply);
  Atomics.store(signal, 0, 1);
  Atomics.notify(signal, 0);
});
`;

/**
 * One SQL statement run synchronously from the caller's point of view: a worker thread with its own
 * connection runs it while this thread waits (`Atomics.wait`, at most `timeoutMs`), and the rows
 * come back through `receiveMessageOnPort`. The worker starts on the first call and does not keep
 * the process alive. This is the synchronous fallback of the PostgreSQL backend's lazy reads (a
 * read the asynchronous seam did not fetch first); it blocks the thread for one round trip.
 */
export class BlockingLineQuery<Row> {
  private worker: Worker | undefined;
  private port: MessagePort | undefined;
  private readonly flag = new Int32Array(new SharedArrayBuffer(4));

  constructor(
    private readonly config: Record<string, unknown>,
    private readonly sql: string,
    private readonly timeoutMs = 120_000,
  ) {}

  /**
   * Runs the statement with `values` and returns its rows.
   * @throws Error with the driver's message, or when no answer came within the timeout.
   */
  run(values: unknown[]): Row[] {
    const port = this.start();
    Atomics.store(this.flag, 0, 0);
    port.postMessage(values);
    if (Atomics.wait(this.flag, 0, 0, this.timeoutMs) === "timed-out") {
      this.close();
      throw new Error(`no answer within ${this.timeoutMs} ms`);
    }
    const reply = receiveMessageOnPort(port)?.message as { rows?: Row[]; error?: string } | undefined;
    if (reply?.rows === undefined) throw new Error(reply?.error ?? "the query worker sent no answer");
    return reply.rows;
  }

  /** Stops the worker (its connection ends with it). Idempotent. */
  close(): void {
    void this.worker?.terminate();
    this.port?.close();
    this.worker = undefined;
    this.port = undefined;
  }

  private start(): MessagePort {
    if (this.port !== undefined) return this.port;
    const { port1, port2 } = new MessageChannel();
    const pgPath = createRequire(import.meta.url).resolve("pg");
    this.worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { port: port2, flag: this.flag.buffer, config: this.config, sql: this.sql, pgPath },
      transferList: [port2],
    });
    this.worker.unref();
    this.worker.on("error", () => {});
    port1.unref();
    this.port = port1;
    return port1;
  }
}
