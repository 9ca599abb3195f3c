/**
 * How the application runs the session, as extensions see it (`api.ui.mode`):
 * - `interactive`: a person is at a terminal (the CLI's interactive mode);
 * - `print`: one prompt, the answer on stdout (`arbor -p`);
 * - `json`: one prompt, every event as a JSON line (`arbor -p --json`);
 * - `command`: a one-shot command with no prompt (`arbor compact`);
 * - `library`: the default, for applications that did not say.
 */
export type SessionMode = "interactive" | "print" | "json" | "command" | "library";

/** How serious a notice is. */
export type NoticeLevel = "info" | "warning" | "error";

/**
 * What an extension can do with the user's screen (`api.ui`; pi's `ctx.ui`, `ctx.hasUI`,
 * `ctx.mode`). The session never waits on the user here: Arbor has no dialogs for extensions.
 */
export interface ExtensionUi {
  /** See {@link SessionMode}. */
  readonly mode: SessionMode;
  /** True in `interactive` mode only: someone is watching a terminal. */
  readonly hasUI: boolean;
  /**
   * Shows a one-line notice to the user. The session delivers it to its listeners as an
   * `extension_notice` event (the CLI prints it: a line in interactive mode, on stderr in print
   * mode, a JSON line with `--json`). Never throws; returns at once.
   */
  notify(message: string, level?: NoticeLevel): void;
}
