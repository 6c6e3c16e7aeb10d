import { CreateMessageResultSchema } from '@modelcontextprotocol/core';
import { McpServer } from '@modelcontextprotocol/server';

const server = new McpServer({ name: 'client-tasks', version: '1.0.0' });

// Task-augmented requests and the client's tasks have no MCP 2026-07-28 form: each is marked, none rewritten.
server.registerTool('long-sample', {}, async () => {
  // mcp-migrate: this sampling request is left as it is and fails on SDK 2.x for every client: a task-augmented request (the client answers with a task the server then polls with tasks/get and tasks/result) has no MCP 2026-07-28 form, nor has SDK 2.x the option; ask without it, or keep the long work on the server's side
  const reply = await server.server.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: 'Think long' } }], maxTokens: 400 }, { task: { ttl: 60_000 } });
  return { content: [{ type: 'text', text: reply.model }] };
});

server.registerTool('poll', {}, async extra => {
  // mcp-migrate: this task request is left as it is and fails on SDK 2.x for every client: getTaskResult() asks the client about its tasks (tasks/get, tasks/result, or a request answered with a task), which neither MCP 2026-07-28 nor SDK 2.x has: ask with inputRequired and keep long work on the server's side
  const result = await server.server.experimental.tasks.getTaskResult('task-1', CreateMessageResultSchema);
  // mcp-migrate: this sampling request is left as it is and fails on SDK 2.x for every client: a task-augmented request (the client answers with a task the server then polls with tasks/get and tasks/result) has no MCP 2026-07-28 form, nor has SDK 2.x the option; ask without it, or keep the long work on the server's side
  const again = await extra.mcpReq.send(
    { method: 'sampling/createMessage', params: { messages: [], maxTokens: 10, task: { ttl: 1000 } } },
    CreateMessageResultSchema
  );
  return { content: [{ type: 'text', text: `${result.model} ${again.model}` }] };
});
