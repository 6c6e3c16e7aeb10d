import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

// Servers made inside a factory: the options given requestState keep the factory's indentation, whether they
// were on one line (grown past the file's width, one line per property) or on several.
export function createServers(): McpServer[] {
  const notes = new McpServer({ name: 'notes-http', version: '0.9.3' }, { capabilities: { tools: { listChanged: true } } });
  const tasks = new McpServer({ name: 'tasks', version: '1.0.0' }, {
    capabilities: { tools: {} },
  });
  notes.registerTool('clear', {}, async () => {
    const answer = await notes.server.elicitInput({ message: 'Clear every note?', requestedSchema: { type: 'object', properties: {} } });
    return { content: [{ type: 'text', text: answer.action }] };
  });
  tasks.registerTool('close-all', {}, async () => {
    const answer = await tasks.server.elicitInput({ message: 'Close every task?', requestedSchema: { type: 'object', properties: {} } });
    return { content: [{ type: 'text', text: answer.action }] };
  });
  return [notes, tasks];
}

export const [server, tasksServer] = createServers();
