import { McpServer, inputRequired } from '@modelcontextprotocol/server';
import type {
  CallToolResult,
  ElicitRequestFormParams,
  InputRequiredResult,
  ServerContext,
} from '@modelcontextprotocol/server';
import { z } from 'zod';
import { elicitResult, resumeCall, verifyRequestState } from './mcp-migrate-state.js';

type ToolCallback<A, E> = (input: A, extra: E) => Promise<CallToolResult | InputRequiredResult>;

/** Every tool's errors become tool results, not protocol errors. */
function withErrors<A, E>(cb: ToolCallback<A, E>): ToolCallback<A, E> {
  return async (input, extra) => {
    try {
      return await cb(input, extra);
    } catch (error) {
      return { content: [{ type: 'text', text: `Error: ${(error as Error).message}` }], isError: true };
    }
  };
}

/** Each call's time is logged. */
function timed<A, E>(cb: (input: A, extra: E) => Promise<CallToolResult | InputRequiredResult>): (input: A, extra: E) => Promise<CallToolResult | InputRequiredResult> {
  return async (...args) => {
    const started = Date.now();
    try {
      return await cb(...args);
    } finally {
      console.error(`tool call took ${Date.now() - started} ms`);
    }
  };
}

const sendSchema: ElicitRequestFormParams['requestedSchema'] = { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] };
const archiveSchema: ElicitRequestFormParams['requestedSchema'] = { type: 'object', properties: { keep: { type: 'number' } }, required: ['keep'] };

export function createServer(): McpServer {
  const server = new McpServer({ name: 'fixture', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });
  // mcp-migrate: withErrors() now runs once per round: the handler it wraps resumes from requestState inside a fresh call, so its code around the handler (a try/catch, logging, timing) runs on each retry (review that running it on each retry is safe)
  server.registerTool(
    'send',
    { inputSchema: z.object({ to: z.string() }) },
    withErrors(async ({ to }, ctx: ServerContext) => {
      // mcp-migrate: input_required phases (MCP 2026-07-28); state sealed by ./mcp-migrate-state.js
      type SendStep = { step: 'awaiting-answer' };
      const call = resumeCall<SendStep>(ctx, 'send', { to });
      return call.run(async resumed => {
        if (resumed.step === 'start') {
          if (to === '') throw new Error('no recipient');
          return call.suspend({ step: 'awaiting-answer' }, {
            answer: inputRequired.elicit({
              message: `Send to ${to}?`,
              requestedSchema: sendSchema,
            }),
          });
        }
        if (resumed.step === 'awaiting-answer') {
          const answer = elicitResult(ctx, 'answer', sendSchema);
          return { content: [{ type: 'text', text: answer.action === 'accept' && answer.content?.ok ? `Sent to ${to}` : 'Not sent' }] };
        }
        throw call.unknownStep(resumed);
      });
    }),
  );
  server.registerTool(
    'echo',
    { inputSchema: z.object({ text: z.string() }) },
    withErrors(async ({ text }) => ({ content: [{ type: 'text', text }] })),
  );
  // mcp-migrate: timed() now runs once per round: the handler it wraps resumes from requestState inside a fresh call, so its code around the handler (a try/catch, logging, timing) runs on each retry (review that running it on each retry is safe)
  server.registerTool(
    'archive',
    { inputSchema: z.object({ path: z.string() }) },
    timed(async ({ path }, extra) => {
      type ArchiveStep = { step: 'awaiting-answer'; folder: string };
      const call = resumeCall<ArchiveStep>(extra, 'archive', { path });
      return call.run(async resumed => {
        if (resumed.step === 'start') {
          const folder = path.replace(/\/+$/, '');
          return call.suspend({ step: 'awaiting-answer', folder }, {
            answer: inputRequired.elicit({
              message: `Archive ${path}?`,
              requestedSchema: archiveSchema,
            }),
          });
        }
        if (resumed.step === 'awaiting-answer') {
          const folder = resumed.folder;
          const answer = elicitResult(extra, 'answer', archiveSchema);
          return { content: [{ type: 'text', text: answer.action === 'accept' ? `Archived ${folder}, keeping ${answer.content?.keep}` : 'Not archived' }] };
        }
        throw call.unknownStep(resumed);
      });
    }),
  );
  return server;
}

export const server = createServer();
