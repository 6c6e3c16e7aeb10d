import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { ask, resumable, verifyRequestState } from './mcp-migrate-state.js';

export const server = new McpServer({ name: 'fixture', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });

const okSchema = { type: 'object' as const, properties: { ok: { type: 'boolean' as const } }, required: ['ok'] };

// Helpers that assign their own parameter, before the question (in a nested function too) and after it: a
// parameter is the round's own, assigned again on each round, so nothing of it is journaled.
async function askTrimmed(prompt: string): Promise<string> {
  const tidy = () => {
    prompt = prompt.trim();
  };
  tidy();
  const answer = await ask(server.server, 'answer').elicitInput({ message: prompt, requestedSchema: okSchema });
  return `${answer.action}: ${prompt}`;
}

async function askThenMark(label: string): Promise<string> {
  const answer = await ask(server.server, 'answer').elicitInput({ message: `Mark ${label}?`, requestedSchema: okSchema });
  if (answer.action === 'accept') label = `${label} (marked)`;
  return label;
}

resumable(server).registerTool('ask', { inputSchema: z.object({ prompt: z.string() }) }, async ({ prompt }) => {
  const said = await askTrimmed(prompt);
  const marked = await askThenMark(prompt);
  return { content: [{ type: 'text', text: `${said} | ${marked} | ${prompt}` }] };
});
