import { McpServer, Server } from '@modelcontextprotocol/server';
import { z } from 'zod';

export const server = new McpServer({ name: 'fixture', version: '1.0.0' }, { capabilities: { logging: {} } });

// In a handler's own body: the request's own log message, through its context.
server.registerTool('import', { description: 'Imports a file', inputSchema: z.object({ file: z.string() }) }, async ({ file }, ctx) => {
  await ctx.mcpReq.log('info', `importing ${file}`, 'import');
  const rows = file.length;
  await ctx.mcpReq.log('debug', { file, rows });
  return { content: [{ type: 'text', text: `${rows} rows` }] };
});

// A handler without a context parameter is given one.
server.registerTool('status', { description: 'Says it is up' }, async ctx => {
  await ctx.mcpReq.log('notice', 'status asked');
  return { content: [{ type: 'text', text: 'up' }] };
});

// Params held in a name are read member by member.
server.registerPrompt('summary', { description: 'A summary prompt', argsSchema: z.object({ topic: z.string() }) }, async ({ topic }, ctx) => {
  const entry = { level: 'info' as const, data: `summary of ${topic}` };
  await ctx.mcpReq.log(entry.level, entry.data);
  return { messages: [{ role: 'user', content: { type: 'text', text: `Summarise ${topic}` } }] };
});

// A function a handler calls has no context: marked, to hand it down.
async function audit(action: string) {
  // mcp-migrate: server.sendLoggingMessage() sends the log message on the connection, not with the request: a 2026-07-28 client that asks for none (no logLevel in its request) gets it anyway over stdio, and over HTTP it is dropped; hand the handler's context (ctx) down to here and call ctx.mcpReq.log(level, data, logger)
  await server.sendLoggingMessage({ level: 'info', data: `audit: ${action}` });
}

server.registerTool('delete', { description: 'Deletes a file', inputSchema: z.object({ file: z.string() }) }, async ({ file }) => {
  await audit(`delete ${file}`);
  return { content: [{ type: 'text', text: `${file} deleted` }] };
});

// A low-level server's tools/call handler.
export const low = new Server({ name: 'fixture-low', version: '1.0.0' }, { capabilities: { tools: {}, logging: {} } });
low.setRequestHandler('tools/call', async (request, ctx) => {
  await ctx.mcpReq.log('info', `called ${request.params.name}`);
  return { content: [{ type: 'text', text: 'ok' }] };
});

// Where no request is served: left, with a note.
setInterval(() => void server.sendLoggingMessage({ level: 'debug', data: 'still alive' }), 60_000).unref();
