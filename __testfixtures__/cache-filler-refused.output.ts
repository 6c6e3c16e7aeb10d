import { McpServer } from '@modelcontextprotocol/server';
import { ask, resumable, verifyRequestState } from './mcp-migrate-state.js';

export const server = new McpServer({ name: 'fixture', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });

let greeting: string | undefined;
let nickname: string | undefined;

// What it stores reads a parameter besides the answer: the fill would need it too.
async function getGreeting(prefix: string): Promise<string> {
  if (greeting) return greeting;
  const answer = await ask(server.server, 'answer').elicitInput({ message: 'Your name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } });
  greeting = `${prefix} ${answer.action === 'accept' ? String(answer.content?.name) : 'friend'}`;
  return greeting;
}

async function getNickname(): Promise<string> {
  if (nickname) return nickname;
  const answer = await ask(server.server, 'answer').elicitInput({ message: 'Your nickname?', requestedSchema: { type: 'object', properties: { nickname: { type: 'string' } } } });
  nickname = answer.action === 'accept' ? String(answer.content?.nickname) : 'pal';
  return nickname;
}

resumable(server).registerTool('greet', { description: 'Greets, once asked' }, async () => {
  const text = await getGreeting('Hello');
  return { content: [{ type: 'text', text }] };
});

// Awaited inside an expression: not the `const name = await ...` the split is written for.
resumable(server).registerTool('nickname', { description: 'Says the nickname' }, async () => {
  return { content: [{ type: 'text', text: `Hi ${await getNickname()}` }] };
});
