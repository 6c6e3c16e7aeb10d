import { McpServer, inputRequired } from '@modelcontextprotocol/server';
import type {
  CallToolResult,
  ElicitRequestFormParams,
  InputRequiredResult,
  ServerContext,
} from '@modelcontextprotocol/server';
import { z } from 'zod';
import { elicitResult, resumeCall, verifyRequestState } from './mcp-migrate-state.js';

export const server = new McpServer({ name: 'fixture', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });

/** Every tool of this server is registered through reg(), which hands its handler on unchanged. */
function reg(name: string, config: { description: string; inputSchema: z.ZodObject<z.ZodRawShape> }, cb: (args: any, extra: any) => Promise<CallToolResult | InputRequiredResult>) {
  server.registerTool(name, config, cb);
}

const greetSchema: ElicitRequestFormParams['requestedSchema'] = { type: 'object', properties: { mood: { type: 'string' } }, required: ['mood'] };

reg('greet', { description: 'Asks how you are', inputSchema: z.object({ name: z.string() }) }, async ({ name }, ctx: ServerContext) => {
  // mcp-migrate: input_required phases (MCP 2026-07-28); state sealed by ./mcp-migrate-state.js
  type GreetStep = { step: 'awaiting-answer' };
  const call = resumeCall<GreetStep>(ctx, 'greet', { name });
  return call.run(async resumed => {
    if (resumed.step === 'start') {
      return call.suspend({ step: 'awaiting-answer' }, {
        answer: inputRequired.elicit({
          message: `How are you, ${name}?`,
          requestedSchema: greetSchema,
        }),
      });
    }
    if (resumed.step === 'awaiting-answer') {
      const answer = elicitResult(ctx, 'answer', greetSchema);
      if (answer.action !== 'accept') return { content: [{ type: 'text', text: `${name} did not say (${answer.action})` }] };
      return { content: [{ type: 'text', text: `${name} feels ${answer.content?.mood}` }] };
    }
    throw call.unknownStep(resumed);
  });
});

reg('ping', { description: 'Answers pong', inputSchema: z.object({}) }, async () => ({ content: [{ type: 'text', text: 'pong' }] }));
