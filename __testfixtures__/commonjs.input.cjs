// A CommonJS server, as many JavaScript MCP servers are written.
const { McpServer } = require('@modelcontextprotocol/sdk/server/mcp.js');
const { z } = require('zod');

const server = new McpServer({ name: 'fixture', version: '1.0.0' });

/**
 * @param {{ city: string }} args
 */
server.registerTool('weather', { inputSchema: { city: z.string() } }, async ({ city }) => {
  /** @type {string} */
  const unit = city.startsWith('US') ? 'F' : 'C';
  const answer = await server.server.elicitInput({
    message: `Weather for ${city}: which day?`,
    requestedSchema: { type: 'object', properties: { day: { type: 'string' } }, required: ['day'] },
  });
  if (answer.action !== 'accept') return { content: [{ type: 'text', text: 'no day chosen' }] };
  return { content: [{ type: 'text', text: `${city} on ${answer.content.day}: 20°${unit}` }] };
});

module.exports = { server };
