import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { McpServer, inputRequired, type ElicitRequestFormParams } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { elicitResult, resumeCall, rootsResult, samplingResult, verifyRequestState } from './mcp-migrate-state.js';

// Servers reached through a factory, a nullable field, a getter and a method: found by their types.
const createServer = () => new McpServer({ name: 'holders', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });

const confirmSchema: ElicitRequestFormParams['requestedSchema'] = { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] };

export class Tools {
  private server: McpServer | null = null;

  private ensureServer(): McpServer {
    if (!this.server) this.server = createServer();
    return this.server;
  }

  get mcp(): McpServer | undefined {
    return this.server ?? undefined;
  }

  register(): void {
    const server = this.ensureServer();
    server.registerTool('confirm', { inputSchema: z.object({ action: z.string() }) }, async ({ action }, ctx) => {
      // mcp-migrate: input_required phases (MCP 2026-07-28); state sealed by ./mcp-migrate-state.js
      type ConfirmStep = { step: 'awaiting-answer' };
      const call = resumeCall<ConfirmStep>(ctx, 'confirm', { action });
      return call.run(async resumed => {
        if (resumed.step === 'start') {
          return call.suspend({ step: 'awaiting-answer' }, {
            answer: inputRequired.elicit({
              message: `Run ${action}?`,
              requestedSchema: confirmSchema,
            }),
          });
        }
        if (resumed.step === 'awaiting-answer') {
          const answer = elicitResult(ctx, 'answer', confirmSchema);
          const ran = answer.action === 'accept' && answer.content?.ok === true;
          return { content: [{ type: 'text', text: ran ? `ran ${action}` : `skipped ${action} (${answer.action})` }] };
        }
        throw call.unknownStep(resumed);
      });
    });
    this.server!.registerTool('count-roots', {}, async ctx => {
      type CountRootsStep = { step: 'awaiting-roots' };
      const call = resumeCall<CountRootsStep>(ctx, 'count-roots', undefined);
      return call.run(async resumed => {
        if (resumed.step === 'start') {
          return call.suspend({ step: 'awaiting-roots' }, {
            roots: inputRequired.listRoots(),
          });
        }
        if (resumed.step === 'awaiting-roots') {
          const { roots } = rootsResult(ctx, 'roots');
          return { content: [{ type: 'text', text: `${roots.length} roots` }] };
        }
        throw call.unknownStep(resumed);
      });
    });
    this.mcp?.registerTool('summarize', { inputSchema: z.object({ text: z.string() }) }, async ({ text }, ctx) => {
      type SummarizeStep = { step: 'awaiting-reply' };
      const call = resumeCall<SummarizeStep>(ctx, 'summarize', { text });
      return call.run(async resumed => {
        if (resumed.step === 'start') {
          return call.suspend({ step: 'awaiting-reply' }, {
            reply: inputRequired.createMessage({
              messages: [{ role: 'user', content: { type: 'text', text: `Summarize: ${text}` } }],
              maxTokens: 50,
            }),
          });
        }
        if (resumed.step === 'awaiting-reply') {
          const reply = samplingResult(ctx, 'reply');
          return { content: [{ type: 'text', text: reply.content.type === 'text' ? reply.content.text : '' }] };
        }
        throw call.unknownStep(resumed);
      });
    });
  }

  async start(): Promise<void> {
    const server2 = this.ensureServer();
    serveStdio(() => server2);
  }
}

const tools = new Tools();
tools.register();
