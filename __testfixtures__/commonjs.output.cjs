// A CommonJS server, as many JavaScript MCP servers are written.
const { McpServer, inputRequired } = require('@modelcontextprotocol/server');
const { z } = require("zod");
const { elicitResult, resumeCall, verifyRequestState } = require('./mcp-migrate-state.cjs');

const server = new McpServer({ name: 'fixture', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });

/** @type {import('@modelcontextprotocol/server').ElicitRequestFormParams['requestedSchema']} */
const weatherSchema = { type: 'object', properties: { day: { type: 'string' } }, required: ['day'] };

/**
 * @param {{ city: string }} args
 */
server.registerTool('weather', { inputSchema: z.object({ city: z.string() }) }, async ({ city }, ctx) => {
  // mcp-migrate: input_required phases (MCP 2026-07-28); state sealed by ./mcp-migrate-state.cjs
  const call = resumeCall(ctx, 'weather', { city });
  return call.run(async resumed => {
    if (resumed.step === 'start') {
      /** @type {string} */
      const unit = city.startsWith('US') ? 'F' : 'C';
      return call.suspend({ step: 'awaiting-answer', unit }, {
        answer: inputRequired.elicit({
          message: `Weather for ${city}: which day?`,
          requestedSchema: weatherSchema,
        }),
      });
    }
    if (resumed.step === 'awaiting-answer') {
      /** @type {string} */ const unit = resumed.unit;
      const answer = elicitResult(ctx, 'answer', weatherSchema);
      if (answer.action !== 'accept') return { content: [{ type: 'text', text: 'no day chosen' }] };
      return { content: [{ type: 'text', text: `${city} on ${answer.content.day}: 20°${unit}` }] };
    }
    throw call.unknownStep(resumed);
  });
});

module.exports = { server };
