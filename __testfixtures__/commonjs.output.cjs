// A CommonJS server, as many JavaScript MCP servers are written.
const { McpServer } = require('@modelcontextprotocol/server');
const { z } = require('zod');
const { ask, resumable, verifyRequestState } = require('./mcp-migrate-state.cjs');

const server = new McpServer({ name: 'fixture', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });

/**
 * @param {{ city: string }} args
 */
resumable(server).registerTool('weather', { inputSchema: z.object({ city: z.string() }) }, async ({ city }) => {
  /** @type {string} */
  const unit = city.startsWith('US') ? 'F' : 'C';
  const answer = await ask(server.server, 'answer').elicitInput({
    message: `Weather for ${city}: which day?`,
    requestedSchema: { type: 'object', properties: { day: { type: 'string' } }, required: ['day'] },
  });
  if (answer.action !== 'accept') return { content: [{ type: 'text', text: 'no day chosen' }] };
  return { content: [{ type: 'text', text: `${city} on ${answer.content.day}: 20°${unit}` }] };
});

module.exports = { server };
