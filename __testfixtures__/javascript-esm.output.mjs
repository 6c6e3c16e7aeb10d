import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { ask, resumable, verifyRequestState } from './mcp-migrate-state.mjs';

export const server = new McpServer({ name: 'fixture', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });

resumable(server).registerTool('nickname', { inputSchema: z.object({ name: z.string() }) }, async ({ name }) => {
  const upper = name.toUpperCase();
  const answer = await ask(server.server, 'answer').elicitInput({
    message: `A nickname for ${name}?`,
    requestedSchema: { type: 'object', properties: { nick: { type: 'string' } }, required: ['nick'] },
  });
  return { content: [{ type: 'text', text: answer.action === 'accept' ? `${upper} aka ${answer.content.nick}` : upper }] };
});

/**
 * Declared apart and passed by name, typed with JSDoc.
 * @param {{ city: string }} args
 * @returns {Promise<import('@modelcontextprotocol/server').CallToolResult>}
 */
async function weather({ city }) {
  const answer = await ask(server.server, 'answer').elicitInput({
    message: `Unit for ${city}?`,
    requestedSchema: { type: 'object', properties: { unit: { type: 'string', enum: ['C', 'F'] } }, required: ['unit'] },
  });
  return { content: [{ type: 'text', text: answer.action === 'accept' ? `${city}: 20 ${answer.content.unit}` : `${city}: no unit` }] };
}

resumable(server).registerTool('weather', { inputSchema: z.object({ city: z.string() }) }, weather);
