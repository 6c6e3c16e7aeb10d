import { serveStdio } from '@modelcontextprotocol/server/stdio';
import {
  McpServer,
  inputRequired,
  type ElicitRequestFormParams,
} from '@modelcontextprotocol/server';
import { z } from 'zod';
import {
  elicitResult,
  resumeCall,
  rootsResult,
  samplingResult,
  verifyRequestState,
} from './mcp-migrate-state.js';

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
      const call = resumeCall(ctx, 'confirm', { action });
      return call.run(async resumed => {
        if (resumed.phase === 0) {
          return call.suspend(1, {}, {
            answer: inputRequired.elicit({
              message: `Run ${action}?`,
              requestedSchema: confirmSchema,
            }),
          });
        }
        if (resumed.phase === 1) {
          const answer = elicitResult(ctx, 'answer', confirmSchema);
          const ran = answer.action === 'accept' && answer.content?.ok === true;
          return { content: [{ type: 'text', text: ran ? `ran ${action}` : `skipped ${action} (${answer.action})` }] };
        }
        throw call.unknownPhase(resumed);
      });
    });
    this.server!.registerTool('count-roots', {}, async ctx => {
      const call = resumeCall(ctx, 'count-roots', undefined);
      return call.run(async resumed => {
        if (resumed.phase === 0) {
          return call.suspend(1, {}, {
            roots: inputRequired.listRoots(),
          });
        }
        if (resumed.phase === 1) {
          const { roots } = rootsResult(ctx, 'roots');
          return { content: [{ type: 'text', text: `${roots.length} roots` }] };
        }
        throw call.unknownPhase(resumed);
      });
    });
    this.mcp?.registerTool('summarize', { inputSchema: z.object({ text: z.string() }) }, async ({ text }, ctx) => {
      const call = resumeCall(ctx, 'summarize', { text });
      return call.run(async resumed => {
        if (resumed.phase === 0) {
          return call.suspend(1, {}, {
            reply: inputRequired.createMessage({
              messages: [{ role: 'user', content: { type: 'text', text: `Summarize: ${text}` } }],
              maxTokens: 50,
            }),
          });
        }
        if (resumed.phase === 1) {
          const reply = samplingResult(ctx, 'reply');
          return { content: [{ type: 'text', text: reply.content.type === 'text' ? reply.content.text : '' }] };
        }
        throw call.unknownPhase(resumed);
      });
    });
  }

  async start(): Promise<void> {
    serveStdio(() => this.ensureServer());
  }
}

const tools = new Tools();
tools.register();
