import { McpServer } from '@modelcontextprotocol/server';

export const server = new McpServer({ name: 'fixture', version: '1.0.0' });

let greeting: string | undefined;
let nickname: string | undefined;

// What it stores reads a parameter besides the answer: the fill would need it too.
async function getGreeting(prefix: string): Promise<string> {
  if (greeting) return greeting;
  // mcp-migrate: elicitation request in helper getGreeting(), not directly in a handler: no handler call reaching it was inlined; 1 call reaching it is marked where it is made; this body is left as it is and still sends the request to those callers and any caller outside the project: migrate it by hand for them, or remove it when nothing calls it
  const answer = await server.server.elicitInput({ message: 'Your name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } });
  greeting = `${prefix} ${answer.action === 'accept' ? String(answer.content?.name) : 'friend'}`;
  return greeting;
}

async function getNickname(): Promise<string> {
  if (nickname) return nickname;
  // mcp-migrate: elicitation request in helper getNickname(), not directly in a handler: no handler call reaching it was inlined; 1 call reaching it is marked where it is made; this body is left as it is and still sends the request to those callers and any caller outside the project: migrate it by hand for them, or remove it when nothing calls it
  const answer = await server.server.elicitInput({ message: 'Your nickname?', requestedSchema: { type: 'object', properties: { nickname: { type: 'string' } } } });
  nickname = answer.action === 'accept' ? String(answer.content?.nickname) : 'pal';
  return nickname;
}

server.registerTool('greet', { description: 'Greets, once asked' }, async () => {
  // mcp-migrate: getGreeting() fills a cache, but is not split into a read of it and a fill from the answer: what it stores reads the parameter prefix, which a fill from the answer alone would not have, so its elicitation request is not migrated; have the tool read the cache and ask only when it is empty (return inputRequired, fill the cache from the answer on the retry), or migrate by hand
  const text = await getGreeting('Hello');
  return { content: [{ type: 'text', text }] };
});

// Awaited inside an expression: not the `const name = await ...` the split is written for.
server.registerTool('nickname', { description: 'Says the nickname' }, async () => {
  // mcp-migrate: getNickname() fills a cache, but is not split into a read of it and a fill from the answer: the call is not written `const name = await getNickname(...)`, the form the split is made for, so its elicitation request is not migrated; have the tool read the cache and ask only when it is empty (return inputRequired, fill the cache from the answer on the retry), or migrate by hand
  return { content: [{ type: 'text', text: `Hi ${await getNickname()}` }] };
});
