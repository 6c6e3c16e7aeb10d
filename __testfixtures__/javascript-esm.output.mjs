import { McpServer, inputRequired } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { elicitResult, resumeCall, verifyRequestState } from './mcp-migrate-state.mjs';

export const server = new McpServer({ name: 'fixture', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });

/** @type {import('@modelcontextprotocol/server').ElicitRequestFormParams['requestedSchema']} */
const nicknameSchema = { type: 'object', properties: { nick: { type: 'string' } }, required: ['nick'] };

server.registerTool('nickname', { inputSchema: z.object({ name: z.string() }) }, async ({ name }, ctx) => {
  // mcp-migrate: input_required phases (MCP 2026-07-28); state sealed by ./mcp-migrate-state.mjs
  const call = resumeCall(ctx, 'nickname', { name });
  return call.run(async resumed => {
    if (resumed.step === 'start') {
      const upper = name.toUpperCase();
      return call.suspend({ step: 'awaiting-answer', upper }, {
        answer: inputRequired.elicit({
          message: `A nickname for ${name}?`,
          requestedSchema: nicknameSchema,
        }),
      });
    }
    if (resumed.step === 'awaiting-answer') {
      /** @type {string} */ const upper = resumed.upper;
      const answer = elicitResult(ctx, 'answer', nicknameSchema);
      return { content: [{ type: 'text', text: answer.action === 'accept' ? `${upper} aka ${answer.content.nick}` : upper }] };
    }
    throw call.unknownStep(resumed);
  });
});

/** @type {import('@modelcontextprotocol/server').ElicitRequestFormParams['requestedSchema']} */
const weatherSchema = { type: 'object', properties: { unit: { type: 'string', enum: ['C', 'F'] } }, required: ['unit'] };

/**
 * Declared apart and passed by name, typed with JSDoc.
 * @param {{ city: string }} args
 * @returns {Promise<import('@modelcontextprotocol/server').CallToolResult | import('@modelcontextprotocol/server').InputRequiredResult>}
 */
async function weather({ city }, ctx) {
  const call = resumeCall(ctx, 'weather', { city });
  return call.run(async resumed => {
    if (resumed.step === 'start') {
      return call.suspend({ step: 'awaiting-answer' }, {
        answer: inputRequired.elicit({
          message: `Unit for ${city}?`,
          requestedSchema: weatherSchema,
        }),
      });
    }
    if (resumed.step === 'awaiting-answer') {
      const answer = elicitResult(ctx, 'answer', weatherSchema);
      return { content: [{ type: 'text', text: answer.action === 'accept' ? `${city}: 20 ${answer.content.unit}` : `${city}: no unit` }] };
    }
    throw call.unknownStep(resumed);
  });
}

server.registerTool('weather', { inputSchema: z.object({ city: z.string() }) }, weather);
