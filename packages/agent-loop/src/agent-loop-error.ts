import { ArborError, hasErrorMarker, setErrorMarker } from "@arbor/providers";

const MARKER = Symbol.for("arbor.error.agent-loop");

/**
 * Codes of {@link AgentLoopError}, all programmer errors:
 * - `AGENT_LOOP_CONFIG_INVALID`: the configuration handed to `runAgentLoop` is unusable (missing
 *   provider or model, duplicate or malformed tools, bad `toolExecution`); the message names the
 *   setting. Thrown before `agent_start`.
 * - `AGENT_LOOP_EVENT_HANDLER_FAILED`: the `onEvent` callback threw; `cause` holds its error. The run
 *   is aborted (stream and tools get the abort signal) before the error is thrown.
 */
export type AgentLoopErrorCode = "AGENT_LOOP_CONFIG_INVALID" | "AGENT_LOOP_EVENT_HANDLER_FAILED";

/**
 * The only error the agent loop throws. Model, network, tool and abort failures never throw: they
 * end as events and a stop reason.
 */
export class AgentLoopError extends ArborError {
  declare readonly code: AgentLoopErrorCode;
  constructor(code: AgentLoopErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
    this.name = "AgentLoopError";
    setErrorMarker(this, MARKER);
  }

  /**
   * True for an `AgentLoopError` only (not for other Arbor errors), whichever copy of the package created
   * the error: checks the global-symbol marker `Symbol.for("arbor.error.agent-loop")`, not the prototype chain.
   */
  static override isInstance(value: unknown): value is AgentLoopError {
    return hasErrorMarker(value, MARKER);
  }
}
