import type { AgentSession, AgentSessionEvent } from "@arbor/runtime";
import { assistantText } from "../agent/assistant-text";
import { eventToJson } from "../agent/event-to-json";
import { formatExtensionNotice } from "../agent/format-extension-notice";
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
import { formatInteger } from "../format/format-number";
import { exitCodeForSignal, onTerminationSignal } from "../process/termination-signals";
import { closeAgentSessionStore } from "../sessions/open-agent-session-store";
import type { AgentInput } from "../usage/agent-usage";
import { composePrintPrompt } from "./compose-print-prompt";
import { readPipedInput } from "./read-piped-input";

type PrintCommand = Extract<AgentInput, { kind: "print" }>;

/** One-line notes on stderr for what happens besides the answer (text mode only). */
function noteFor(event: AgentSessionEvent): string | undefined {
  switch (event.type) {
    case "compaction_end":
      return event.result
        ? `compacted the context (${event.reason}, ${event.result.summarizer} summary): ~${formatInteger(event.result.tokensBefore)} → ~${formatInteger(event.result.estimatedTokensAfter)} tokens`
        : event.errorMessage
          ? `compaction failed: ${event.errorMessage}`
          : undefined;
    case "compaction_fallback":
      return `the model summary failed (${event.errorMessage}); using the offline summarizer`;
    case "hook_error":
      // The hook error's message already names the extension and the hook.
      return event.error.message;
    case "extension_notice":
      return formatExtensionNotice(event);
    default:
      return undefined;
  }
}

/**
 * `arbor -p "prompt"`: runs the prompt to completion (tool calls included) and prints the final
 * answer on stdout. The prompt comes from `-p`, from what is piped into stdin, or both (the piped
 * text then follows as context, see `composePrintPrompt`); with neither it is a usage error (exit 2)
 * before anything else is read; with `--json`, every session event as one JSON line instead. SIGINT (Ctrl-C),
 * SIGTERM or SIGHUP abort the run (tool processes are killed at once) and end with 128 + the
 * signal's number (130, 143, 129) once the session is closed. A model failure or a session error
 * is one line on stderr with exit code 1.
 */
export async function runPrintCommand(command: PrintCommand, io: CliIo): Promise<number> {
  const prompt = composePrintPrompt(command.prompt, await readPipedInput(io.stdin ?? process.stdin));
  const environment = loadAgentEnvironment(
    command,
    io,
    await decideAgentTrust(command, io),
    command.json ? "json" : "print",
  );
  const store = await openAgentStore(environment, sessionChoiceOf(command));
  let session: AgentSession | undefined;
  let stoppedBy: NodeJS.Signals | undefined;
  const stopListening = onTerminationSignal((signal) => {
    stoppedBy = signal;
    void session?.abort();
  });
  try {
    const binding = await bindModel(environment, { sessionModel: store.getProjection().model });
    session = await startAgentSession(environment, store, binding);
    for (const warning of startupWarnings(environment, session)) io.stderr.write(warning);
    if (stoppedBy !== undefined) {
      io.stderr.write(`arbor: stopped by ${stoppedBy}\n`);
      return exitCodeForSignal(stoppedBy);
    }
    session.subscribe((event) => {
      if (command.json) {
        io.stdout.write(`${eventToJson(event)}\n`);
        return;
      }
      const note = noteFor(event);
      if (note) io.stderr.write(`arbor: ${note}\n`);
    });
    const result = await session.prompt(prompt);
    const last = result.lastAssistant;
    if (stoppedBy !== undefined || result.stopReason === "aborted" || last?.stopReason === "aborted") {
      io.stderr.write(
        stoppedBy === undefined || stoppedBy === "SIGINT"
          ? "arbor: aborted\n"
          : `arbor: stopped by ${stoppedBy}\n`,
      );
      return exitCodeForSignal(stoppedBy ?? "SIGINT");
    }
    if (result.error) {
      io.stderr.write(`arbor: ${result.error.message.replace(/\s*\n\s*/g, " ")}\n`);
      return 1;
    }
    if (last?.stopReason === "error") {
      io.stderr.write(
        `arbor: ${last.provider}/${last.model} failed: ${(last.errorMessage ?? "unknown error").replace(/\s*\n\s*/g, " ")}\n`,
      );
      return 1;
    }
    if (!command.json) {
      const text = assistantText(last);
      io.stdout.write(text.endsWith("\n") ? text : `${text}\n`);
    }
    return 0;
  } finally {
    stopListening();
    await session?.dispose();
    closeAgentSessionStore(store);
  }
}
