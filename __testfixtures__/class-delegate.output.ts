import { McpServer, inputRequired } from '@modelcontextprotocol/server';
import type {
  CallToolResult,
  ElicitRequestFormParams,
  InputRequiredResult,
  ServerContext,
} from '@modelcontextprotocol/server';
import { z } from 'zod';
import { elicitResult, resumeCall, samplingResult, verifyRequestState } from './mcp-migrate-state.js';

const routes: Record<string, string[]> = { fastest: ['A1'], scenic: ['coast road', 'old bridge'] };

/** One class per tool: the handler registered in the base class only returns this.execute(...). */
abstract class BaseTool {
  abstract readonly name: string;

  constructor(protected readonly server: McpServer) {}

  abstract execute(args: { text: string }, ctx: ServerContext): Promise<CallToolResult | InputRequiredResult>;

  register(): void {
    this.server.registerTool(this.name, { inputSchema: z.object({ text: z.string() }) }, async (args, ctx) => this.execute(args, ctx));
  }

  protected ok(text: string): CallToolResult {
    return { content: [{ type: 'text', text }] };
  }
}

export class RouteTool extends BaseTool {
  readonly name = 'plan_route';

  async execute({ text }: { text: string }, ctx: ServerContext): Promise<CallToolResult | InputRequiredResult> {
    // mcp-migrate: input_required phases (MCP 2026-07-28); state sealed by ./mcp-migrate-state.js
    type Step = { step: 'awaiting-answer' };
    const call = resumeCall<Step>(ctx, this.name, { text });
    return call.run(async resumed => {
      if (resumed.step === 'start') {
        return call.suspend({ step: 'awaiting-answer' }, {
          answer: inputRequired.elicit({
            message: `How would you like to travel to ${text}?`,
            requestedSchema: { type: 'object', properties: { kind: { type: 'string', enum: Object.keys(routes) } }, required: ['kind'] },
          }),
        });
      }
      if (resumed.step === 'awaiting-answer') {
        const answer = elicitResult(ctx, 'answer');
        const preference: string | undefined = answer.action === 'accept' ? String(answer.content?.kind) : undefined;
        if (!preference) return this.ok(`No route to ${text}.`);
        return this.ok(`${routes[preference]!.join(' → ')} → ${text}`);
      }
      throw call.unknownStep(resumed);
    });
  }
}

export class SummaryTool extends BaseTool {
  readonly name = 'summarize';

  async execute({ text }: { text: string }, ctx: ServerContext) {
    type Step = { step: 'awaiting-result' };
    const call = resumeCall<Step>(ctx, this.name, { text });
    return call.run(async resumed => {
      if (resumed.step === 'start') {
        return call.suspend({ step: 'awaiting-result' }, {
          result: inputRequired.createMessage({
            messages: [{ role: 'user', content: { type: 'text', text: `Summarize: ${text}` } }],
            maxTokens: 60,
          }),
        });
      }
      if (resumed.step === 'awaiting-result') {
        const result = samplingResult(ctx, 'result');
        return this.ok(result.content.type === 'text' ? result.content.text : '(no summary)');
      }
      throw call.unknownStep(resumed);
    });
  }
}

const deleteSchema: ElicitRequestFormParams['requestedSchema'] = { type: 'object', properties: { sure: { type: 'boolean' } }, required: ['sure'] };

/** A tool whose handler returns what a function of the module gives back. */
async function confirmDelete({ path }: { path: string }, ctx: ServerContext): Promise<CallToolResult | InputRequiredResult> {
  type DeleteStep = { step: 'awaiting-answer' };
  const call = resumeCall<DeleteStep>(ctx, 'delete', { path });
  return call.run(async resumed => {
    if (resumed.step === 'start') {
      return call.suspend({ step: 'awaiting-answer' }, {
        answer: inputRequired.elicit({
          message: `Delete ${path}?`,
          requestedSchema: deleteSchema,
        }),
      });
    }
    if (resumed.step === 'awaiting-answer') {
      const answer = elicitResult(ctx, 'answer', deleteSchema);
      if (answer.action !== 'accept' || !answer.content?.sure) return { content: [{ type: 'text', text: 'kept' }] };
      return { content: [{ type: 'text', text: `deleted ${path}` }] };
    }
    throw call.unknownStep(resumed);
  });
}

export const server = new McpServer({ name: 'fixture', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });
new RouteTool(server).register();
new SummaryTool(server).register();
server.registerTool('delete', { inputSchema: z.object({ path: z.string() }) }, async (args, ctx) => {
  return await confirmDelete(args, ctx);
});
