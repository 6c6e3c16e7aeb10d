// A request inside a callback the handler returns through the project's own wrapper, which passes the
// callback's value through: the callback's body is split into phases, the wrapper runs once per round.
import { McpServer, inputRequired, type ElicitRequestFormParams } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { elicitResult, resumeCall, samplingResult, verifyRequestState } from './mcp-migrate-state.js';

interface Span {
  name: string;
  attributes: Record<string, string | number>;
}

const finished: Span[] = [];

/** Runs the work inside a named span, in the style of OpenTelemetry's startActiveSpan. */
const tracer = {
  async span<T>(name: string, work: (span: Span) => Promise<T>): Promise<T> {
    const span: Span = { name, attributes: {} };
    try {
      return await work(span);
    } finally {
      finished.push(span);
    }
  },
};

/** Rejects when the work takes longer than `ms`; otherwise resolves with its value. */
async function withDeadline<T>(work: () => Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work(), expired]);
  } finally {
    clearTimeout(timer);
  }
}

const server = new McpServer({ name: 'awaited-callback-split', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });

const archiveSchema: ElicitRequestFormParams['requestedSchema'] = { type: 'object', properties: { keep: { type: 'integer', minimum: 1 } }, required: ['keep'] };

server.registerTool('archive', { inputSchema: z.object({ path: z.string() }) }, async ({ path }, ctx) => {
  // mcp-migrate: span() now runs once per round: its callback resumes from requestState inside a fresh call (review that running it on each retry is safe)
  return tracer.span('archive', async span => {
    // mcp-migrate: input_required phases (MCP 2026-07-28); state sealed by ./mcp-migrate-state.js
    type ArchiveStep = { step: 'awaiting-answer' };
    const call = resumeCall<ArchiveStep>(ctx, 'archive', { path });
    return call.run(async resumed => {
      if (resumed.step === 'start') {
        span.attributes.path = path;
        return call.suspend({ step: 'awaiting-answer' }, {
          answer: inputRequired.elicit({
            message: `Archive ${path}?`,
            requestedSchema: archiveSchema,
          }),
        });
      }
      if (resumed.step === 'awaiting-answer') {
        const answer = elicitResult(ctx, 'answer', archiveSchema);
        span.attributes.action = answer.action;
        if (answer.action !== 'accept') return { content: [{ type: 'text', text: `${path} left as it is (${answer.action})` }] };
        return { content: [{ type: 'text', text: `archived ${path}, keeping ${answer.content?.keep} copies` }] };
      }
      throw call.unknownStep(resumed);
    });
  });
});

server.registerTool('summarize', { inputSchema: z.object({ text: z.string() }) }, async ({ text }, ctx) => {
  // mcp-migrate: withDeadline() now runs once per round: its callback resumes from requestState inside a fresh call (review that running it on each retry is safe)
  return withDeadline(async () => {
    type SummarizeStep = { step: 'awaiting-reply'; words: number };
    const call = resumeCall<SummarizeStep>(ctx, 'summarize', { text });
    return call.run(async resumed => {
      if (resumed.step === 'start') {
        const words = text.split(/\s+/).length;
        return call.suspend({ step: 'awaiting-reply', words }, {
          reply: inputRequired.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: `Summarize: ${text}` } }], maxTokens: 40 }),
        });
      }
      if (resumed.step === 'awaiting-reply') {
        const words = resumed.words;
        const reply = samplingResult(ctx, 'reply');
        const summary = reply.content.type === 'text' ? reply.content.text : '';
        return { content: [{ type: 'text', text: `${words} words: ${summary}` }] };
      }
      throw call.unknownStep(resumed);
    });
  }, 30_000);
});
