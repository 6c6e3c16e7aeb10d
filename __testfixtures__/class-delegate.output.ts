import { McpServer } from '@modelcontextprotocol/server';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { ask, resumable, verifyRequestState } from './mcp-migrate-state.js';

const routes: Record<string, string[]> = { fastest: ['A1'], scenic: ['coast road', 'old bridge'] };

/** One class per tool: the handler registered in the base class only returns this.execute(...). */
abstract class BaseTool {
  abstract readonly name: string;

  constructor(protected readonly server: McpServer) {}

  abstract execute(args: { text: string }): Promise<CallToolResult>;

  register(): void {
    resumable(this.server).registerTool(this.name, { inputSchema: z.object({ text: z.string() }) }, async args => this.execute(args));
  }

  protected ok(text: string): CallToolResult {
    return { content: [{ type: 'text', text }] };
  }
}

export class RouteTool extends BaseTool {
  readonly name = 'plan_route';

  async execute({ text }: { text: string }): Promise<CallToolResult> {
    const preference = await this.chooseRoute(text);
    if (!preference) return this.ok(`No route to ${text}.`);
    return this.ok(`${routes[preference]!.join(' → ')} → ${text}`);
  }

  private async chooseRoute(to: string): Promise<string | undefined> {
    const answer = await ask(this.server.server, 'answer').elicitInput({
      message: `How would you like to travel to ${to}?`,
      requestedSchema: { type: 'object', properties: { kind: { type: 'string', enum: Object.keys(routes) } }, required: ['kind'] },
    });
    return answer.action === 'accept' ? String(answer.content?.kind) : undefined;
  }
}

export class SummaryTool extends BaseTool {
  readonly name = 'summarize';

  async execute({ text }: { text: string }) {
    const result = await ask(this.server.server, 'result').createMessage({
      messages: [{ role: 'user', content: { type: 'text', text: `Summarize: ${text}` } }],
      maxTokens: 60,
    });
    return this.ok(result.content.type === 'text' ? result.content.text : '(no summary)');
  }
}

/** A tool whose handler returns what a function of the module gives back. */
async function confirmDelete({ path }: { path: string }): Promise<CallToolResult> {
  const answer = await ask(server.server, 'answer').elicitInput({
    message: `Delete ${path}?`,
    requestedSchema: { type: 'object', properties: { sure: { type: 'boolean' } }, required: ['sure'] },
  });
  if (answer.action !== 'accept' || !answer.content?.sure) return { content: [{ type: 'text', text: 'kept' }] };
  return { content: [{ type: 'text', text: `deleted ${path}` }] };
}

export const server = new McpServer({ name: 'fixture', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });
new RouteTool(server).register();
new SummaryTool(server).register();
resumable(server).registerTool('delete', { inputSchema: z.object({ path: z.string() }) }, async args => {
  return await confirmDelete(args);
});
