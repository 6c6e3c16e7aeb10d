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
    if (resumed.phase === 0) {
      const upper = name.toUpperCase();
      return call.suspend(1, { upper }, {
        answer: inputRequired.elicit({
          message: `A nickname for ${name}?`,
          requestedSchema: nicknameSchema,
        }),
      });
    }
    if (resumed.phase === 1) {
      /** @type {string} */ const upper = resumed.locals.upper;
      const answer = elicitResult(ctx, 'answer', nicknameSchema);
      return { content: [{ type: 'text', text: answer.action === 'accept' ? `${upper} aka ${answer.content.nick}` : upper }] };
    }
    throw call.unknownPhase(resumed);
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
    if (resumed.phase === 0) {
      return call.suspend(1, {}, {
        answer: inputRequired.elicit({
          message: `Unit for ${city}?`,
          requestedSchema: weatherSchema,
        }),
      });
    }
    if (resumed.phase === 1) {
      const answer = elicitResult(ctx, 'answer', weatherSchema);
      return { content: [{ type: 'text', text: answer.action === 'accept' ? `${city}: 20 ${answer.content.unit}` : `${city}: no unit` }] };
    }
    throw call.unknownPhase(resumed);
  });
}

server.registerTool('weather', { inputSchema: z.object({ city: z.string() }) }, weather);
