import { McpServer, inputRequired, type ElicitRequestFormParams } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { elicitResult, resumeCall, verifyRequestState } from './mcp-migrate-state.js';

const routes: Record<string, string[]> = { fastest: ['A1'], scenic: ['coast road', 'old bridge'] };

/** Wraps the questions the server asks; held in a field of the tools that use it. */
class IntentElicitator {
  constructor(private readonly server: McpServer, private readonly prefix: string) {}
}

const searchSchema: ElicitRequestFormParams['requestedSchema'] = { type: 'object', properties: { intent: { type: 'string', enum: ['buy', 'browse'] } }, required: ['intent'] };

/** Tools registered from a method: `this` of the arrow handlers is the instance. */
export class RouteTools {
  private readonly elicitator: IntentElicitator;

  constructor(private readonly server: McpServer) {
    this.elicitator = new IntentElicitator(server, 'Shop:');
  }

  register(): void {
    this.server.registerTool('plan_route', { inputSchema: z.object({ from: z.string(), to: z.string() }) }, async ({ from, to }, ctx) => {
      // mcp-migrate: input_required phases (MCP 2026-07-28); state sealed by ./mcp-migrate-state.js
      type PlanRouteStep = { step: 'awaiting-answer' };
      const call = resumeCall<PlanRouteStep>(ctx, 'plan_route', { from, to });
      return call.run(async resumed => {
        if (resumed.step === 'start') {
          return call.suspend({ step: 'awaiting-answer' }, {
            answer: inputRequired.elicit({
              message: `How would you like to travel from ${from} to ${to}?`,
              requestedSchema: { type: 'object', properties: { kind: { type: 'string', enum: Object.keys(routes) } }, required: ['kind'] },
            }),
          });
        }
        if (resumed.step === 'awaiting-answer') {
          const answer = elicitResult(ctx, 'answer');
          const preference: string | undefined = answer.action === 'accept' ? String(answer.content?.kind) : undefined;
          if (!preference) return { content: [{ type: 'text', text: `No route from ${from} to ${to}.` }] };
          return { content: [{ type: 'text', text: `${from} → ${routes[preference]!.join(' → ')} → ${to}` }] };
        }
        throw call.unknownStep(resumed);
      });
    });
    this.server.registerTool('search', { inputSchema: z.object({ query: z.string() }) }, async ({ query }, ctx) => {
      type SearchStep = { step: 'awaiting-result' };
      const call = resumeCall<SearchStep>(ctx, 'search', { query });
      return call.run(async resumed => {
        if (resumed.step === 'start') {
          return call.suspend({ step: 'awaiting-result' }, {
            result: inputRequired.elicit({
              message: `${this.elicitator['prefix']} What would you like to do with "${query}"?`,
              requestedSchema: searchSchema,
            }),
          });
        }
        if (resumed.step === 'awaiting-result') {
          let intent: string | undefined;
          const result = elicitResult(ctx, 'result', searchSchema);
          if (result.action !== 'accept') {
            intent = undefined;
          } else {
            intent = String(result.content?.intent);
          }
          return { content: [{ type: 'text', text: intent ? `${intent}: ${query}` : 'nothing chosen' }] };
        }
        throw call.unknownStep(resumed);
      });
    });
  }
}

export const server = new McpServer({ name: 'fixture', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });
new RouteTools(server).register();
