import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CreateMessageResultSchema } from '@modelcontextprotocol/sdk/types.js';

const server = new McpServer({ name: 'client-tasks', version: '1.0.0' });

// Task-augmented requests and the client's tasks have no MCP 2026-07-28 form: each is marked, none rewritten.
server.registerTool('long-sample', {}, async () => {
  const reply = await server.server.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: 'Think long' } }], maxTokens: 400 }, { task: { ttl: 60_000 } });
  return { content: [{ type: 'text', text: reply.model }] };
});

server.registerTool('poll', {}, async extra => {
  const result = await server.server.experimental.tasks.getTaskResult('task-1', CreateMessageResultSchema);
  const again = await extra.sendRequest(
    { method: 'sampling/createMessage', params: { messages: [], maxTokens: 10, task: { ttl: 1000 } } },
    CreateMessageResultSchema
  );
  return { content: [{ type: 'text', text: `${result.model} ${again.model}` }] };
});
