import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

export const server = new McpServer({ name: 'fixture', version: '1.0.0' });

server.registerTool('nickname', { inputSchema: { name: z.string() } }, async ({ name }) => {
  const upper = name.toUpperCase();
  const answer = await server.server.elicitInput({
    message: `A nickname for ${name}?`,
    requestedSchema: { type: 'object', properties: { nick: { type: 'string' } }, required: ['nick'] },
  });
  return { content: [{ type: 'text', text: answer.action === 'accept' ? `${upper} aka ${answer.content.nick}` : upper }] };
});

/**
 * Declared apart and passed by name, typed with JSDoc.
 * @param {{ city: string }} args
 * @returns {Promise<import('@modelcontextprotocol/sdk/types.js').CallToolResult>}
 */
async function weather({ city }) {
  const answer = await server.server.elicitInput({
    message: `Unit for ${city}?`,
    requestedSchema: { type: 'object', properties: { unit: { type: 'string', enum: ['C', 'F'] } }, required: ['unit'] },
  });
  return { content: [{ type: 'text', text: answer.action === 'accept' ? `${city}: 20 ${answer.content.unit}` : `${city}: no unit` }] };
}

server.registerTool('weather', { inputSchema: { city: z.string() } }, weather);
