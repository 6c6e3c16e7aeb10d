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

type Send = (request: { method: string; params?: Record<string, unknown> }) => Promise<unknown>;

async function sampleWith(send: Send, text: string): Promise<unknown> {
  return send({ method: 'sampling/createMessage', params: { messages: [{ role: 'user', content: { type: 'text', text } }], maxTokens: 5 } });
}

server.registerTool('delegate', { inputSchema: z.object({ text: z.string() }) }, async ({ text }, ctx) => {
  const result = await sampleWith(request => ctx.mcpReq.send(request as never, {} as never), text);
  // mcp-migrate: tools/call delegate this request request is left as it is (2025-era clients only): ctx.mcpReq.send is passed on as a value, so the request it sends cannot be followed; call it in the handler, or rewrite that helper to return inputRequired
  const direct = await sampleWith(ctx.mcpReq.send as never, text);
  return { content: [{ type: 'text', text: `${String(result)} ${String(direct)}` }] };
});
