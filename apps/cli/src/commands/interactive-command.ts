import {
  bindModel,
  decideAgentTrust,
  loadAgentEnvironment,
  openAgentStore,
  sessionChoiceOf,
  startAgentSession,
} from "../agent/prepare-agent";
import { startupWarnings } from "../agent/startup-warnings";
import type { CliIo } from "../cli-io";
import { askOnce } from "../interactive/ask-once";
import { askProjectTrust } from "../interactive/ask-project-trust";
import { colorsEnabled } from "../interactive/colors-enabled";
import { InteractiveApp } from "../interactive/interactive-app";
import { canPickFrom, pickFromList } from "../interactive/pick-from-list";
import { pickSession } from "../interactive/slash/resume-slash-command";
import { createTerminalStyle } from "../interactive/terminal-style";
import { onTerminationSignal } from "../process/termination-signals";
import type { SessionChoice } from "../sessions/open-agent-session-store";
import { closeAgentSessionStore } from "../sessions/open-agent-session-store";
import type { AgentInput } from "../usage/agent-usage";

/**
 * `arbor` (no command): the interactive agent on the terminal. A folder with project configuration
 * and no trust decision is asked about first (on a terminal; otherwise it stays untrusted for the
 * run). `--resume` then lists the sessions of this folder to pick one. Returns the exit code when the
 * user quits.
 */
export async function runInteractiveCommand(
  command: Extract<AgentInput, { kind: "interactive" }>,
  io: CliIo,
): Promise<number> {
  const output = process.stdout;
  const canAsk = process.stdin.isTTY === true && output.isTTY === true;
  const trust = await decideAgentTrust(
    command,
    io,
    canAsk
      ? (project) =>
          askProjectTrust(
            project,
            (question) => askOnce(process.stdin, output, question),
            (line) => output.write(`${line}\n`),
          )
      : undefined,
  );
  const environment = loadAgentEnvironment(command, io, trust, "interactive");
  let choice: SessionChoice = sessionChoiceOf(command);
  if (command.resume) {
    const style = createTerminalStyle(colorsEnabled(environment.env, output.isTTY === true));
    const terminal = { input: process.stdin, output };
    const file = await pickSession({
      environment,
      style,
      columns: output.columns || 100,
      print: (text) => output.write(`${environment.redactor.redact(text)}\n`),
      ask: (question) => askOnce(process.stdin, output, question),
      canPick: canPickFrom(terminal),
      pick: (options) => pickFromList(terminal, { ...options, style }),
    });
    if (file === undefined) return 0;
    choice = { kind: "path", path: file };
  }
  const store = await openAgentStore(environment, choice);
  try {
    const binding = await bindModel(environment, { sessionModel: store.getProjection().model });
    const session = await startAgentSession(environment, store, binding);
    for (const warning of startupWarnings(environment, session)) io.stderr.write(warning);
    const app = new InteractiveApp(
      environment,
      session,
      store,
      binding,
      { input: process.stdin, output },
      io,
    );
    const stopListening = onTerminationSignal((signal) => app.terminate(signal));
    try {
      return await app.run();
    } finally {
      stopListening();
    }
  } catch (error) {
    closeAgentSessionStore(store);
    throw error;
  }
}
