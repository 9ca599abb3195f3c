import readline from "node:readline";
import type { AgentSession } from "@arbor/runtime";
import type { SessionStore } from "@arbor/session-store";
import type { AgentEnvironment, ModelBinding } from "../agent/prepare-agent";
import type { CliIo } from "../cli-io";
import { sanitizeTerminalText } from "../format/sanitize-terminal-text";
import { exitCodeForSignal } from "../process/termination-signals";
import { reportError } from "../report-error";
import { closeAgentSessionStore } from "../sessions/open-agent-session-store";
import { shortSessionId } from "../sessions/short-session-id";
import { askOutsideAccess } from "./ask-outside-access";
import { colorsEnabled } from "./colors-enabled";
import { formatStatusLine } from "./format-status-line";
import type { InteractiveContext } from "./interactive-context";
import { canPickFrom, type PickFromListOptions, pickFromList } from "./pick-from-list";
import { SessionEventRenderer } from "./render-session-event";
import { SLASH_COMMAND_HANDLERS } from "./slash/slash-command-table";
import { parseSlashCommand, SLASH_COMMANDS } from "./slash-commands";
import { startNextSession } from "./start-next-session";
import { createTerminalStyle, type TerminalStyle } from "./terminal-style";

/** The terminal streams of the interactive mode. */
export interface InteractiveStreams {
  input: NodeJS.ReadableStream & { isTTY?: boolean };
  output: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
}

/**
 * The interactive agent: a readline prompt, streamed replies, tool lines, a status line after every
 * run, slash commands, Ctrl-C to abort a run (twice at an empty prompt to quit) and Ctrl-D to quit.
 * Lines typed while the agent runs are queued as follow-up messages; lines that arrive while a slash
 * command runs answer its questions, in order, even when they arrive before the question is asked
 * (piped input: `/tree`, an id, `y`), and what it did not ask for is handled afterwards as input.
 */
export class InteractiveApp implements InteractiveContext {
  readonly style: TerminalStyle;
  readonly renderer: SessionEventRenderer;
  private rl: readline.Interface | undefined;
  private current: {
    session: AgentSession;
    store: SessionStore;
    binding: ModelBinding;
    unsubscribe: () => void;
  };
  private pendingAnswer: ((line: string) => void) | undefined;
  /** True while a slash command runs: lines that arrive then are answers to its questions. */
  private runningCommand = false;
  /** Lines that arrived while a command ran before it asked its next question (piped input). */
  private earlyAnswers: string[] = [];
  private busy = false;
  private closing = false;
  private lastInterrupt = 0;
  private exitCode = 0;
  private cost = 0;
  private finish: ((code: number) => void) | undefined;

  constructor(
    readonly environment: AgentEnvironment,
    session: AgentSession,
    store: SessionStore,
    binding: ModelBinding,
    private readonly streams: InteractiveStreams,
    private readonly io: CliIo,
  ) {
    const tty = streams.output.isTTY === true;
    this.style = createTerminalStyle(colorsEnabled(environment.env, tty));
    this.renderer = new SessionEventRenderer({
      write: (text) => streams.output.write(environment.redactor.redact(text)),
      style: this.style,
      columns: this.columns,
      spinners: tty,
    });
    this.current = { session, store, binding, unsubscribe: this.attach(session) };
    this.cost = session.getSessionStats().cost;
    environment.toolGuard.confirm = (request) => askOutsideAccess(this, request);
  }

  get session(): AgentSession {
    return this.current.session;
  }
  get store(): SessionStore {
    return this.current.store;
  }
  get binding(): ModelBinding {
    return this.current.binding;
  }
  get columns(): number {
    return this.streams.output.columns || 100;
  }

  /** Runs until the user quits; resolves with the exit code. */
  run(): Promise<number> {
    const rl = readline.createInterface({
      input: this.streams.input,
      output: this.streams.output,
      terminal: this.streams.input.isTTY === true,
      historySize: 200,
    });
    this.rl = rl;
    rl.on("line", (line) => void this.onLine(line));
    rl.on("SIGINT", () => void this.onInterrupt());
    rl.on("close", () => {
      // Input ended (Ctrl-D, or the end of piped input): finish once the current run is done.
      this.closing = true;
      const pending = this.pendingAnswer;
      this.pendingAnswer = undefined;
      pending?.("");
      if (!this.busy) this.finish?.(this.exitCode);
    });
    this.print(this.style.bold(`arbor · ${this.describeSession()}`));
    this.print(this.style.dim("Type a request, /help for commands, Ctrl-C to abort a run, Ctrl-D to quit."));
    this.showStatus();
    this.showPrompt();
    return new Promise((resolve) => {
      this.finish = (code) => {
        this.finish = undefined;
        void this.shutdown().then(() => resolve(code));
      };
    });
  }

  print(text: string): void {
    this.renderer.line(text);
  }

  ask(question: string): Promise<string> {
    const early = this.earlyAnswers.shift();
    if (early !== undefined) {
      // Typed (or piped) before the question was shown: it answers it.
      this.print(`${question}${early.trim()}`);
      return Promise.resolve(early.trim());
    }
    return new Promise((resolve) => {
      this.pendingAnswer = (line) => resolve(line.trim());
      this.rl?.setPrompt(sanitizeTerminalText(question, { keepStyles: true }).replace(/\n/g, " "));
      this.rl?.prompt();
    });
  }

  get canPick(): boolean {
    return canPickFrom(this.streams);
  }

  pick(options: Omit<PickFromListOptions, "style">): Promise<string | undefined> {
    this.renderer.stopSpinner();
    return pickFromList(this.streams, { ...options, style: this.style });
  }

  prefill(text: string): void {
    // Typed into readline: a newline or carriage return would send it, an escape would move the cursor.
    this.pendingPrefill = sanitizeTerminalText(text).replace(/[\n\t]/g, " ");
  }

  async switchTo(
    store: SessionStore,
    options: { reason: "new" | "resume" | "fork"; session?: AgentSession; binding?: ModelBinding },
  ): Promise<void> {
    const next = { store, binding: options.binding ?? this.current.binding };
    const old = this.current;
    // As in pi, the old session ends before the new one starts, so an extension that saves its state
    // on shutdown and loads it on start sees them in that order (a fork's session already started).
    old.unsubscribe();
    await old.session.dispose(options.reason, store.path);
    const started = options.session
      ? { session: options.session, slot: next }
      : await startNextSession(this.environment, next, old, options.reason);
    closeAgentSessionStore(started.slot === next ? old.store : store);
    this.current = { ...started.slot, session: started.session, unsubscribe: this.attach(started.session) };
    this.cost = started.session.getSessionStats().cost;
    if ("error" in started) throw started.error;
  }

  setBinding(binding: ModelBinding): void {
    this.current = { ...this.current, binding };
  }

  addCost(amount: number): void {
    this.cost += amount;
  }

  quit(): void {
    this.rl?.close();
  }

  /**
   * Ends the app after a termination signal: aborts a running prompt and quits once it has stopped;
   * `run` then resolves with 128 + the signal's number.
   */
  terminate(signal: NodeJS.Signals): void {
    this.exitCode = exitCodeForSignal(signal);
    if (this.busy) void this.session.abort();
    this.quit();
  }

  private pendingPrefill: string | undefined;

  private attach(session: AgentSession): () => void {
    return session.subscribe((event) => {
      this.renderer.handle(event);
      if (event.type === "message_end" && event.message.role === "assistant") {
        this.cost += event.message.usage.cost.total;
      }
      if (event.type === "compaction_end" && event.result?.usage) this.cost += event.result.usage.cost.total;
    });
  }

  private describeSession(): string {
    const name = sanitizeTerminalText(this.store.getSessionName() ?? "");
    const file = this.store.path ?? "in memory (not saved)";
    return `${name ? `"${name}" · ` : ""}${file} · ${this.session.model.provider}/${this.session.model.id}`;
  }

  private showStatus(): void {
    const usage = this.session.getContextUsage();
    const model = this.session.model;
    this.print(
      this.style.dim(
        formatStatusLine({
          model: `${model.provider}/${model.id}`,
          ...(this.session.thinkingLevel ? { thinkingLevel: this.session.thinkingLevel } : {}),
          tokens: usage ? usage.tokens : null,
          contextWindow: usage?.contextWindow ?? model.contextWindow,
          cost: this.cost,
          session: sanitizeTerminalText(this.store.getSessionName() ?? shortSessionId(this.store.sessionId)),
        }),
      ),
    );
  }

  private showPrompt(): void {
    if (!this.rl) return;
    this.rl.setPrompt(this.style.bold("› "));
    this.rl.prompt();
    if (this.pendingPrefill !== undefined) {
      this.rl.write(this.pendingPrefill);
      this.pendingPrefill = undefined;
    }
  }

  private async onLine(line: string): Promise<void> {
    if (this.pendingAnswer) {
      const answer = this.pendingAnswer;
      this.pendingAnswer = undefined;
      answer(line);
      return;
    }
    const text = line.trim();
    if (this.busy && this.runningCommand) {
      this.earlyAnswers.push(line);
      return;
    }
    if (this.busy) {
      if (text && !text.startsWith("/")) {
        this.session.followUp(text);
        this.print(this.style.dim("(queued for when the agent is done)"));
      } else if (text) this.print(this.style.dim("(busy: wait for the run to end, or Ctrl-C to abort it)"));
      return;
    }
    if (!text) {
      this.showPrompt();
      return;
    }
    this.busy = true;
    try {
      const command = parseSlashCommand(text);
      if (command) {
        this.runningCommand = true;
        try {
          await this.runSlashCommand(command.name, command.args);
        } finally {
          this.runningCommand = false;
        }
      } else await this.runPrompt(text);
    } catch (error) {
      this.renderer.stopSpinner();
      reportError(error, {
        ...this.io,
        stderr: { write: (chunk: string) => this.renderer.line(this.style.red(chunk.trimEnd())) },
      });
    } finally {
      this.busy = false;
    }
    // Lines the command did not ask for are input of their own, in order.
    const leftover = this.earlyAnswers.splice(0);
    if (leftover.length > 0) {
      const closing = this.closing;
      this.closing = false; // input may have ended already: finish after the last of them
      for (const next of leftover) await this.onLine(next);
      this.closing ||= closing;
      if (!this.closing) return; // the last of them showed the prompt
    }
    if (this.closing) {
      this.finish?.(this.exitCode);
      return;
    }
    if (this.finish) {
      this.showStatus();
      this.showPrompt();
    }
  }

  private async runPrompt(text: string): Promise<void> {
    const result = await this.session.prompt(text);
    this.renderer.stopSpinner();
    if (result.error) this.print(this.style.red(`✗ ${result.error.message}`));
  }

  private async runSlashCommand(name: string, args: string): Promise<void> {
    if (name === "quit" || name === "exit") {
      this.quit();
      return;
    }
    if (name === "help") {
      for (const command of SLASH_COMMANDS)
        this.print(`${command.usage.padEnd(26)}${this.style.dim(command.help)}`);
      return;
    }
    const handler = SLASH_COMMAND_HANDLERS[name];
    if (!handler) {
      this.print(this.style.yellow(`Unknown command /${name} (try /help).`));
      return;
    }
    await handler(this, args);
  }

  private async onInterrupt(): Promise<void> {
    if (this.pendingAnswer) {
      const answer = this.pendingAnswer;
      this.pendingAnswer = undefined;
      this.rl?.write("\n");
      answer("");
      return;
    }
    if (this.busy) {
      this.print(this.style.yellow("Aborting…"));
      await this.session.abort();
      return;
    }
    const now = Date.now();
    if (this.rl && this.rl.line.length > 0) {
      this.rl.write(null, { ctrl: true, name: "u" });
      return;
    }
    if (now - this.lastInterrupt < 1500) {
      this.quit();
      return;
    }
    this.lastInterrupt = now;
    this.print(this.style.dim("(Ctrl-C again to quit)"));
    this.showPrompt();
  }

  private async shutdown(): Promise<void> {
    this.renderer.stopSpinner();
    this.current.unsubscribe();
    await this.current.session.dispose();
    closeAgentSessionStore(this.current.store);
    this.streams.output.write("\n");
  }
}
