import { McpServer } from "@modelcontextprotocol/server";
import { z } from 'zod';

const server = new McpServer({ name: 'fixture', version: '1.0.0' });

let cachedRoots: string[] = [];

server.server.oninitialized = async () => {
  // mcp-migrate: roots request in server.server.oninitialized: MCP 2026-07-28 has no server-initiated requests outside tools/call, prompts/get and resources/read; request it from inside the tool that needs it (return inputRequired) or read it lazily there
  const { roots } = await server.server.listRoots();
  cachedRoots = roots.map(r => r.uri);
};

async function askName(): Promise<string> {
  // mcp-migrate: elicitation request in helper askName(), not directly in a handler: helpers that await server-initiated requests are not rewritten yet; inline the call into the handler, or return inputRequired from the handler
  const answer = await server.server.elicitInput({ message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } });
  return answer.action === 'accept' ? String(answer.content?.name) : 'anonymous';
}

server.registerTool('hello', { inputSchema: z.object({ greeting: z.string() }) }, async ({ greeting }) => {
  const name = await askName();
  return { content: [{ type: 'text', text: `${greeting}, ${name} (${cachedRoots.length} roots)` }] };
});

export { server };
