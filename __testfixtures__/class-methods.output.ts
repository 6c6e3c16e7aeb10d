import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { ask, resumable, verifyRequestState } from './mcp-migrate-state.js';

const routes: Record<string, string[]> = { fastest: ['A1'], scenic: ['coast road', 'old bridge'] };

/** Wraps the questions the server asks; held in a field of the tools that use it. */
class IntentElicitator {
  constructor(private readonly server: McpServer, private readonly prefix: string) {}

  async elicitIntent(query: string): Promise<string | undefined> {
    const result = await ask(this.server.server, 'result').elicitInput({
      message: `${this.prefix} What would you like to do with "${query}"?`,
      requestedSchema: { type: 'object', properties: { intent: { type: 'string', enum: ['buy', 'browse'] } }, required: ['intent'] },
    });
    if (result.action !== 'accept') return undefined;
    return String(result.content?.intent);
  }
}

/** Tools registered from a method: `this` of the arrow handlers is the instance. */
export class RouteTools {
  private readonly elicitator: IntentElicitator;

  constructor(private readonly server: McpServer) {
    this.elicitator = new IntentElicitator(server, 'Shop:');
  }

  register(): void {
    resumable(this.server).registerTool('plan_route', { inputSchema: z.object({ from: z.string(), to: z.string() }) }, async ({ from, to }) => {
      const preference = await this.chooseRoute(from, to);
      if (!preference) return { content: [{ type: 'text', text: `No route from ${from} to ${to}.` }] };
      return { content: [{ type: 'text', text: `${from} → ${routes[preference]!.join(' → ')} → ${to}` }] };
    });
    resumable(this.server).registerTool('search', { inputSchema: z.object({ query: z.string() }) }, async ({ query }) => {
      const intent = await this.elicitator.elicitIntent(query);
      return { content: [{ type: 'text', text: intent ? `${intent}: ${query}` : 'nothing chosen' }] };
    });
  }

  private async chooseRoute(from: string, to: string): Promise<string | undefined> {
    const answer = await ask(this.server.server, 'answer').elicitInput({
      message: `How would you like to travel from ${from} to ${to}?`,
      requestedSchema: { type: 'object', properties: { kind: { type: 'string', enum: Object.keys(routes) } }, required: ['kind'] },
    });
    return answer.action === 'accept' ? String(answer.content?.kind) : undefined;
  }
}

export const server = new McpServer({ name: 'fixture', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });
new RouteTools(server).register();
