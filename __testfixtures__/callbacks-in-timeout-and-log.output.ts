// Callbacks that do nothing but the request, handed to the project's own wrappers (a timeout, a log line):
// the request is asked where it is written, inside the callback, and both wrappers stay as they are. On a
// 2026-07-28 client each round runs the wrapper again: its timer covers one round, not the time the user
// takes to answer between rounds, and its log line is written once per round, as logs are.
import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { ask, resumable, verifyRequestState } from './mcp-migrate-state.js';

/** Rejects when the work takes longer than `ms`; otherwise resolves with its value. */
async function withTimeout<T>(work: () => Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work(), expired]);
  } finally {
    clearTimeout(timer);
  }
}

/** Says on stderr what it runs. */
const logged = async <T>(label: string, work: () => Promise<T>): Promise<T> => {
  console.error(`running ${label}`);
  return work();
};

const server = new McpServer({ name: 'callbacks-in-timeout-and-log', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });
const confirmSchema = { type: 'object' as const, properties: { sure: { type: 'boolean' as const } }, required: ['sure'] };

resumable(server).registerTool('deploy', { inputSchema: z.object({ service: z.string() }) }, async ({ service }) => {
  const question = { message: `Deploy ${service} now?`, requestedSchema: confirmSchema };
  const answer = await withTimeout(async () => ask(server.server).elicitInput(question), 60_000);
  if (answer.action === 'accept' && answer.content?.sure === true) return { content: [{ type: 'text', text: `deploying ${service}` }] };
  return { content: [{ type: 'text', text: `${service} not deployed (${answer.action})` }] };
});

resumable(server).registerTool('name-it', { inputSchema: z.object({ topic: z.string() }) }, async ({ topic }) => {
  const reply = await logged('name-it', async () => {
    return await ask(server.server).createMessage({ messages: [{ role: 'user', content: { type: 'text', text: `A name for ${topic}?` } }], maxTokens: 10 });
  });
  const name = reply.content.type === 'text' ? reply.content.text : '';
  return { content: [{ type: 'text', text: `${topic}: ${name}` }] };
});
