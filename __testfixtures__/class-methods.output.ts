import {
  McpServer,
  inputRequired,
  type ElicitRequestFormParams,
} from '@modelcontextprotocol/server';
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
      type PlanRouteStep = { step: 'awaiting-answer'; chooseRouteResult: string | undefined };
      const call = resumeCall<PlanRouteStep>(ctx, 'plan_route', { from, to });
      return call.run(async resumed => {
        if (resumed.step === 'start') {
          let chooseRouteResult!: string | undefined;
          mcpInline: {
            const mcpFrom: string = from;
            const mcpTo: string = to;
            return call.suspend({ step: 'awaiting-answer', chooseRouteResult }, {
              answer: inputRequired.elicit({
                message: `How would you like to travel from ${mcpFrom} to ${mcpTo}?`,
                requestedSchema: { type: 'object', properties: { kind: { type: 'string', enum: Object.keys(routes) } }, required: ['kind'] },
              }),
            });
          }
        }
        if (resumed.step === 'awaiting-answer') {
          let chooseRouteResult = resumed.chooseRouteResult;
          mcpInline: {
            const answer = elicitResult(ctx, 'answer');
            { chooseRouteResult = answer.action === 'accept' ? String(answer.content?.kind) : undefined; break mcpInline; }
          }
          const preference = chooseRouteResult;
          if (!preference) return { content: [{ type: 'text', text: `No route from ${from} to ${to}.` }] };
          return { content: [{ type: 'text', text: `${from} → ${routes[preference]!.join(' → ')} → ${to}` }] };
        }
        throw call.unknownStep(resumed);
      });
    });
    this.server.registerTool('search', { inputSchema: z.object({ query: z.string() }) }, async ({ query }, ctx) => {
      type SearchStep = { step: 'awaiting-result'; elicitIntentResult: string | undefined };
      const call = resumeCall<SearchStep>(ctx, 'search', { query });
      return call.run(async resumed => {
        if (resumed.step === 'start') {
          let elicitIntentResult!: string | undefined;
          mcpInline2: {
            const mcpQuery: string = query;
            return call.suspend({ step: 'awaiting-result', elicitIntentResult }, {
              result: inputRequired.elicit({
                message: `${this.elicitator['prefix']} What would you like to do with "${mcpQuery}"?`,
                requestedSchema: searchSchema,
              }),
            });
          }
        }
        if (resumed.step === 'awaiting-result') {
          let elicitIntentResult = resumed.elicitIntentResult;
          mcpInline2: {
            const result = elicitResult(ctx, 'result', searchSchema);
            if (result.action !== 'accept') { elicitIntentResult = undefined; break mcpInline2; }
            { elicitIntentResult = String(result.content?.intent); break mcpInline2; }
          }
          const intent = elicitIntentResult;
          return { content: [{ type: 'text', text: intent ? `${intent}: ${query}` : 'nothing chosen' }] };
        }
        throw call.unknownStep(resumed);
      });
    });
  }
}

export const server = new McpServer({ name: 'fixture', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });
new RouteTools(server).register();
