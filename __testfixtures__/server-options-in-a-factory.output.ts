import { McpServer } from '@modelcontextprotocol/server';
import { ask, resumable, verifyRequestState } from './mcp-migrate-state.js';

// Servers made inside a factory: the options given requestState keep the factory's indentation, whether they
// were on one line (grown past the file's width, one line per property) or on several.
export function createServers(): McpServer[] {
  const notes = new McpServer({ name: 'notes-http', version: '0.9.3' }, {
    capabilities: { tools: { listChanged: true } },
    requestState: { verify: verifyRequestState },
  });
  const tasks = new McpServer({ name: 'tasks', version: '1.0.0' }, {
    capabilities: { tools: {} },
    requestState: { verify: verifyRequestState },
  });
  resumable(notes).registerTool('clear', {}, async () => {
    const answer = await ask(notes.server, 'answer').elicitInput({ message: 'Clear every note?', requestedSchema: { type: 'object', properties: {} } });
    return { content: [{ type: 'text', text: answer.action }] };
  });
  resumable(tasks).registerTool('close-all', {}, async () => {
    const answer = await ask(tasks.server, 'answer').elicitInput({ message: 'Close every task?', requestedSchema: { type: 'object', properties: {} } });
    return { content: [{ type: 'text', text: answer.action }] };
  });
  return [notes, tasks];
}

export const [server, tasksServer] = createServers();
