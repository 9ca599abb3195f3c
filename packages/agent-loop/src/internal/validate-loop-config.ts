import type { AgentLoopConfig } from "../agent-loop-config";
import { AgentLoopError } from "../agent-loop-error";
import type { AgentTool } from "../agent-tool";

function invalid(message: string): AgentLoopError {
  return new AgentLoopError("AGENT_LOOP_CONFIG_INVALID", `runAgentLoop: ${message}`);
}

/**
 * Checks the parts of the config the loop cannot run without and returns the tools by name.
 *
 * @throws AgentLoopError `AGENT_LOOP_CONFIG_INVALID`, naming the setting.
 */
export function validateLoopConfig(config: AgentLoopConfig): Map<string, AgentTool> {
  if (typeof config !== "object" || config === null) throw invalid("config must be an object");
  if (typeof config.provider?.stream !== "function") {
    throw invalid('"provider" must implement stream(request, options)');
  }
  if (typeof config.model?.id !== "string") throw invalid('"model" must be a model descriptor with an "id"');
  if (!Array.isArray(config.messages)) throw invalid('"messages" must be an array');
  if (config.prompts !== undefined && !Array.isArray(config.prompts))
    throw invalid('"prompts" must be an array');
  if (config.toolExecution !== undefined && !isMode(config.toolExecution)) {
    throw invalid(
      `"toolExecution" must be "sequential" or "parallel", got ${JSON.stringify(config.toolExecution)}`,
    );
  }
  const tools = new Map<string, AgentTool>();
  for (const [index, tool] of (config.tools ?? []).entries()) {
    const where = `tools[${index}]`;
    if (typeof tool?.name !== "string" || tool.name.length === 0)
      throw invalid(`${where}.name must be a non-empty string`);
    if (tools.has(tool.name)) throw invalid(`${where}: duplicate tool name "${tool.name}"`);
    if (typeof tool.execute !== "function")
      throw invalid(`${where} ("${tool.name}").execute must be a function`);
    if (typeof tool.parameters !== "object" || tool.parameters === null) {
      throw invalid(`${where} ("${tool.name}").parameters must be a JSON Schema object`);
    }
    if (tool.executionMode !== undefined && !isMode(tool.executionMode)) {
      throw invalid(`${where} ("${tool.name}").executionMode must be "sequential" or "parallel"`);
    }
    tools.set(tool.name, tool);
  }
  return tools;
}

function isMode(value: unknown): boolean {
  return value === "sequential" || value === "parallel";
}
