/**
 * Smoke mode: a scenario derived from what the server lists, for when there is no scenario file.
 */
import { closeSession, openSession, type ServerCommand } from './run.js';
import { sampleObject, type Scenario, type ScenarioCall } from './scenario.js';

export interface SmokeOptions {
  cwd?: string;
  env?: Record<string, string | undefined>;
  /** The command serves Streamable HTTP at this path (see `ServerCommand.http`). */
  http?: string;
  /** Per request. Default 10 000. */
  timeoutMs?: number;
}

interface ListedTool {
  name: string;
  inputSchema?: unknown;
}

interface ListedPrompt {
  name: string;
  arguments?: { name: string; required?: boolean }[];
}

/**
 * Lists the server's tools and prompts with a legacy (SDK 1.x) client and builds one call per tool and per
 * prompt: arguments from the input schema (required properties only; strings "test", numbers 1, booleans
 * true, enums their first value), prompt arguments "test" for the required ones, and no answers, so every
 * input request gets its default answer. Throws when the server cannot be listed.
 */
export async function smokeScenario(command: string | ServerCommand, options: SmokeOptions = {}): Promise<Scenario> {
  const server: ServerCommand =
    typeof command === 'string'
      ? { command, cwd: options.cwd, env: options.env, ...(options.http !== undefined ? { http: options.http } : {}) }
      : command;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const session = await openSession('legacy', server, timeoutMs);
  try {
    const calls: ScenarioCall[] = [];
    let tools: ListedTool[] = [];
    try {
      tools = (await session.client.listTools(timeoutMs)) as ListedTool[];
    } catch {
      // A server without the tools capability (prompts or resources only): no tool calls.
    }
    for (const tool of tools) {
      calls.push({
        name: `tool ${tool.name}`,
        method: 'tools/call',
        params: { name: tool.name, arguments: sampleObject(tool.inputSchema, true) },
        answers: {},
      });
    }
    let prompts: ListedPrompt[] = [];
    try {
      prompts = (await session.client.listPrompts(timeoutMs)) as ListedPrompt[];
    } catch {
      // A server without the prompts capability: no prompt calls.
    }
    for (const prompt of prompts) {
      const args: Record<string, string> = {};
      for (const arg of prompt.arguments ?? []) if (arg.required) args[arg.name] = 'test';
      calls.push({ name: `prompt ${prompt.name}`, method: 'prompts/get', params: { name: prompt.name, arguments: args }, answers: {} });
    }
    return { calls };
  } finally {
    await closeSession(session);
  }
}
