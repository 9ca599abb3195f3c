import type { AgentSession } from "@arbor/runtime";
import type { SessionStore } from "@arbor/session-store";
import type { AgentEnvironment, ModelBinding } from "../agent/prepare-agent";
import type { PickFromListOptions } from "./pick-from-list";
import type { SessionEventRenderer } from "./render-session-event";
import type { TerminalStyle } from "./terminal-style";

/** What slash commands use: the current session, output, questions, and switching sessions. */
export interface InteractiveContext {
  readonly session: AgentSession;
  readonly store: SessionStore;
  readonly binding: ModelBinding;
  readonly environment: AgentEnvironment;
  readonly renderer: SessionEventRenderer;
  readonly style: TerminalStyle;
  readonly columns: number;
  /** Prints one line. */
  print(text: string): void;
  /** Asks a question and resolves with the answer line (trimmed; empty when the user just pressed Enter). */
  ask(question: string): Promise<string>;
  /** True when {@link InteractiveContext.pick} can show the arrow-key picker (input and output are terminals). */
  readonly canPick: boolean;
  /**
   * Shows the arrow-key picker (only when `canPick`; commands fall back to `ask` otherwise) and
   * resolves with the chosen row's id, or undefined when the user cancels. Erases itself when done.
   */
  pick(options: Omit<PickFromListOptions, "style">): Promise<string | undefined>;
  /** Puts text into the input line for the user to edit and send. */
  prefill(text: string): void;
  /**
   * Replaces the current session with one over `store`: the old session is disposed (extensions get
   * `session_shutdown` with `reason` and the new file) and its store closed; a new session is started
   * (`session_start` with `reason` and the old file) unless `session` is given (the runtime already
   * made it: fork and clone).
   */
  switchTo(
    store: SessionStore,
    options: { reason: "new" | "resume" | "fork"; session?: AgentSession; binding?: ModelBinding },
  ): Promise<void>;
  /** Replaces the model binding of the current session. */
  setBinding(binding: ModelBinding): void;
  /** Adds the cost of a usage record to the status line's running total. */
  addCost(amount: number): void;
  /** Ends the interactive mode. */
  quit(): void;
}

/** A slash command handler. */
export type SlashCommandHandler = (context: InteractiveContext, args: string) => Promise<void>;
