import { z } from 'zod';
import { BaseTool } from './BaseTool.js';

const schema = { from: z.string(), to: z.string() };

const routes: Record<string, string[]> = {
  fastest: ['A1', 'ring road'],
  scenic: ['coast road', 'old bridge'],
  cheapest: ['B2', 'ferry'],
};

export class RouteTool extends BaseTool<{ from: string; to: string }> {
  readonly name = 'plan_route';
  readonly description = 'Plan a route, asking which kind of route the user prefers';
  readonly schema = schema;

  async execute({ from, to }: { from: string; to: string }) {
    const preference = await this.chooseRoute(from, to);
    if (!preference) return this.ok(`No route planned from ${from} to ${to}.`);
    return this.ok(`${from} → ${routes[preference]!.join(' → ')} → ${to} (${preference})`);
  }

  private async chooseRoute(from: string, to: string): Promise<string | undefined> {
    const answer = await this.server.server.elicitInput({
      message: `How would you like to travel from ${from} to ${to}?`,
      requestedSchema: {
        type: 'object',
        properties: { kind: { type: 'string', enum: Object.keys(routes), title: 'Route' } },
        required: ['kind'],
      },
    });
    return answer.action === 'accept' ? String(answer.content?.kind) : undefined;
  }
}
