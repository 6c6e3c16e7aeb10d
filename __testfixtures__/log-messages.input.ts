import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CallToolRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { z } from 'zod';

export const server = new McpServer({ name: 'fixture', version: '1.0.0' }, { capabilities: { logging: {} } });

// In a handler's own body: the request's own log message, through its context.
server.registerTool('import', { description: 'Imports a file', inputSchema: { file: z.string() } }, async ({ file }, extra) => {
  await server.sendLoggingMessage({ level: 'info', logger: 'import', data: `importing ${file}` }, extra.sessionId);
  const rows = file.length;
  await server.server.sendLoggingMessage({ level: 'debug', data: { file, rows } });
  return { content: [{ type: 'text', text: `${rows} rows` }] };
});

// A handler without a context parameter is given one.
server.registerTool('status', { description: 'Says it is up' }, async () => {
  await server.sendLoggingMessage({ level: 'notice', data: 'status asked' });
  return { content: [{ type: 'text', text: 'up' }] };
});

// Params held in a name are read member by member.
server.registerPrompt('summary', { description: 'A summary prompt', argsSchema: { topic: z.string() } }, async ({ topic }) => {
  const entry = { level: 'info' as const, data: `summary of ${topic}` };
  await server.sendLoggingMessage(entry);
  return { messages: [{ role: 'user', content: { type: 'text', text: `Summarise ${topic}` } }] };
});

// A function a handler calls has no context: marked, to hand it down.
async function audit(action: string) {
  await server.sendLoggingMessage({ level: 'info', data: `audit: ${action}` });
}

server.registerTool('delete', { description: 'Deletes a file', inputSchema: { file: z.string() } }, async ({ file }) => {
  await audit(`delete ${file}`);
  return { content: [{ type: 'text', text: `${file} deleted` }] };
});

// A low-level server's tools/call handler.
export const low = new Server({ name: 'fixture-low', version: '1.0.0' }, { capabilities: { tools: {}, logging: {} } });
low.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
  await low.sendLoggingMessage({ level: 'info', data: `called ${request.params.name}` }, extra.sessionId);
  return { content: [{ type: 'text', text: 'ok' }] };
});

// Where no request is served: left, with a note.
setInterval(() => void server.sendLoggingMessage({ level: 'debug', data: 'still alive' }), 60_000).unref();
