// Helpers that ask, shared by several tools, and a helper calling one: each question is asked where the helper
// writes it, and only the tools' registrations change; the helpers stay one copy each.
import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { ask, resumable, verifyRequestState } from './mcp-migrate-state.js';

export const server = new McpServer({ name: 'fixture', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });

const DEFAULT_NAME = 'friend';

/** Asks for a name, with an early return on refusal; shared by two tools. */
async function askName(question: string): Promise<string> {
  const answer = await ask(server.server, 'answer').elicitInput({
    message: question,
    requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
  });
  if (answer.action !== 'accept') return DEFAULT_NAME;
  const name = String(answer.content?.name);
  return name.trim() === '' ? DEFAULT_NAME : name;
}

const summarize = async (text: string, words: number) => {
  const result = await ask(server.server, 'result').createMessage({
    messages: [{ role: 'user', content: { type: 'text', text: `In ${words} words: ${text}` } }],
    maxTokens: words * 4,
  });
  return result.content.type === 'text' ? result.content.text : '';
};

resumable(server).registerTool('greet', { inputSchema: z.object({ greeting: z.string() }) }, async ({ greeting }) => {
  const question = `${greeting}! Who are you?`;
  const name = await askName(question);
  return { content: [{ type: 'text', text: `${greeting}, ${name}` }] };
});

resumable(server).registerTool('introduce', { inputSchema: z.object({ topic: z.string() }) }, async ({ topic }) => {
  const name = await askName('Your name, for the introduction?');
  const blurb = await summarize(topic, 10);
  return { content: [{ type: 'text', text: `${name} presents ${topic}: ${blurb}` }] };
});

/** A helper calling a helper: two questions in one call, asked in order. */
async function confirmName(question: string): Promise<string> {
  const name = await askName(question);
  const check = await ask(server.server, 'check').elicitInput({
    message: `Is ${name} right?`,
    requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
  });
  return check.action === 'accept' && check.content?.ok === true ? name : DEFAULT_NAME;
}

resumable(server).registerTool('confirm', { description: 'Asks a name, then to confirm it' }, async () => {
  const name = await confirmName('Name to confirm?');
  return { content: [{ type: 'text', text: `Confirmed: ${name}` }] };
});
