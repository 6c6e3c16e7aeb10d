import { McpServer, inputRequired, type ElicitRequestFormParams } from '@modelcontextprotocol/server';
import { z } from 'zod';
import {
  elicitResult,
  requireClientSupport,
  resumeCall,
  rootsResult,
  samplingResult,
  verifyRequestState,
} from './mcp-migrate-state.js';

export const server = new McpServer({ name: 'fixture', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });

// What the finally blocks did, read back (and cleared) by the ledger tool: each must run once per call.
const ledger: string[] = [];
const held = new Set<string>();

server.registerTool('ledger', { description: 'What the finally blocks did since the last look' }, async () => {
  return { content: [{ type: 'text', text: ledger.splice(0).join(' | ') || 'nothing' }] };
});

const reserveSchema: ElicitRequestFormParams['requestedSchema'] = { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] };

// A seat is held while the user confirms and released however the call ends.
server.registerTool('reserve', { inputSchema: z.object({ seat: z.string() }) }, async ({ seat }, ctx) => {
  // mcp-migrate: input_required phases (MCP 2026-07-28); state sealed by ./mcp-migrate-state.js
  type ReserveStep = { step: 'awaiting-answer' };
  const call = resumeCall<ReserveStep>(ctx, 'reserve', { seat });
  return call.run(async resumed => {
    if (resumed.step === 'start') {
      let mcpSuspended = false; // true once this round suspends: a finally then waits for the round that leaves its try
      if (held.has(seat)) return { content: [{ type: 'text', text: `${seat} is already held` }] };
      held.add(seat);
      try {
        requireClientSupport(ctx, ['elicitation']);
        const mcpRound = await call.suspend({ step: 'awaiting-answer' }, {
          answer: inputRequired.elicit({
            message: `Reserve seat ${seat}?`,
            requestedSchema: reserveSchema,
          }),
        });
        mcpSuspended = true;
        return mcpRound;
      } catch (error) {
        return { content: [{ type: 'text', text: `${seat} not reserved: ${error instanceof Error ? error.message : 'unknown error'}` }] };
      } finally {
        if (!mcpSuspended) {
          held.delete(seat);
          ledger.push(`released ${seat}`);
        }
      }
    }
    if (resumed.step === 'awaiting-answer') {
      try {
        const answer = elicitResult(ctx, 'answer', reserveSchema);
        if (answer.action === 'cancel') throw new Error('cancelled by the user');
        if (answer.action !== 'accept') return { content: [{ type: 'text', text: `${seat} not reserved (${answer.action})` }] };
        return { content: [{ type: 'text', text: `${seat} reserved for ${answer.content?.name}` }] };
      } catch (error) {
        return { content: [{ type: 'text', text: `${seat} not reserved: ${error instanceof Error ? error.message : 'unknown error'}` }] };
      } finally {
        held.delete(seat);
        ledger.push(`released ${seat}`);
      }
    }
    throw call.unknownStep(resumed);
  });
});

const reviewSchema: ElicitRequestFormParams['requestedSchema'] = { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] };

// Two requests, the second in a nested try: each finally runs once, inner first, on the round that leaves it;
// the outer catch sees what a request threw (a client without sampling).
server.registerTool('publish', { inputSchema: z.object({ topic: z.string() }) }, async ({ topic }, ctx) => {
  type PublishStep =
    | { step: 'awaiting-draft'; trail: string[] }
    | { step: 'awaiting-review'; trail: string[]; text: string };
  const call = resumeCall<PublishStep>(ctx, 'publish', { topic });
  return call.run(async resumed => {
    if (resumed.step === 'start') {
      let mcpSuspended = false; // true once this round suspends: a finally then waits for the round that leaves its try
      const trail: string[] = [];
      try {
        trail.push('drafted');
        requireClientSupport(ctx, ['sampling']);
        const mcpRound = await call.suspend({ step: 'awaiting-draft', trail }, {
          draft: inputRequired.createMessage({
            messages: [{ role: 'user', content: { type: 'text', text: `Write about ${topic}` } }],
            maxTokens: 50,
          }),
        });
        mcpSuspended = true;
        return mcpRound;
      } catch {
        return { content: [{ type: 'text', text: `${topic} not published: a request failed` }] };
      } finally {
        if (!mcpSuspended) {
          ledger.push(`publish ${topic}: ${trail.join(' > ')}`);
        }
      }
    }
    if (resumed.step === 'awaiting-draft') {
      let mcpSuspended = false; // true once this round suspends: a finally then waits for the round that leaves its try
      const trail = resumed.trail;
      try {
        const draft = samplingResult(ctx, 'draft');
        const text = draft.content.type === 'text' ? draft.content.text : '';
        if (!text) return { content: [{ type: 'text', text: 'empty draft' }] };
        try {
          requireClientSupport(ctx, ['elicitation']);
          const mcpRound = await call.suspend({ step: 'awaiting-review', trail, text }, {
            review: inputRequired.elicit({
              message: `Publish "${text}"?`,
              requestedSchema: reviewSchema,
            }),
          });
          mcpSuspended = true;
          return mcpRound;
        } finally {
          if (!mcpSuspended) {
            trail.push('review closed');
          }
        }
      } catch {
        return { content: [{ type: 'text', text: `${topic} not published: a request failed` }] };
      } finally {
        if (!mcpSuspended) {
          ledger.push(`publish ${topic}: ${trail.join(' > ')}`);
        }
      }
      return { content: [{ type: 'text', text: `published: ${trail.join(' > ')}` }] };
    }
    if (resumed.step === 'awaiting-review') {
      const trail = resumed.trail;
      try {
        const text = resumed.text;
        try {
          const review = elicitResult(ctx, 'review', reviewSchema);
          if (review.action !== 'accept' || !review.content?.ok) return { content: [{ type: 'text', text: `kept as a draft: ${text}` }] };
          trail.push('published');
        } finally {
          trail.push('review closed');
        }
      } catch {
        return { content: [{ type: 'text', text: `${topic} not published: a request failed` }] };
      } finally {
        ledger.push(`publish ${topic}: ${trail.join(' > ')}`);
      }
      return { content: [{ type: 'text', text: `published: ${trail.join(' > ')}` }] };
    }
    throw call.unknownStep(resumed);
  });
});

// A finally that returns: its result wins over the try's, and over the throw.
server.registerTool('workspace', { description: 'Counts the roots, whatever happens' }, async ctx => {
  type WorkspaceStep = { step: 'awaiting-roots'; status: string };
  const call = resumeCall<WorkspaceStep>(ctx, 'workspace', undefined);
  return call.run(async resumed => {
    if (resumed.step === 'start') {
      let mcpSuspended = false; // true once this round suspends: a finally then waits for the round that leaves its try
      let status = 'not asked';
      try {
        requireClientSupport(ctx, ['roots']);
        const mcpRound = await call.suspend({ step: 'awaiting-roots', status }, {
          roots: inputRequired.listRoots(),
        });
        mcpSuspended = true;
        return mcpRound;
      } finally {
        if (!mcpSuspended) {
          ledger.push(`workspace: ${status}`);
          // eslint-disable-next-line no-unsafe-finally
          return { content: [{ type: 'text', text: `workspace status: ${status}` }] };
        }
      }
    }
    if (resumed.step === 'awaiting-roots') {
      let status = resumed.status;
      try {
        const { roots } = rootsResult(ctx, 'roots');
        status = `${roots.length} roots`;
        if (roots.length === 0) throw new Error('no roots');
        return { content: [{ type: 'text', text: `first root ${roots[0]!.uri}` }] };
      } finally {
        ledger.push(`workspace: ${status}`);
        // eslint-disable-next-line no-unsafe-finally
        return { content: [{ type: 'text', text: `workspace status: ${status}` }] };
      }
    }
    throw call.unknownStep(resumed);
  });
});

const cardSchema: ElicitRequestFormParams['requestedSchema'] = { type: 'object', properties: { holder: { type: 'string' } }, required: ['holder'] };

// A try/finally in a switch case: every case returns, the finally runs once for the card.
server.registerTool('checkout', { inputSchema: z.object({ method: z.enum(['card', 'cash']) }) }, async ({ method }, ctx) => {
  type CheckoutStep = { step: 'awaiting-card' };
  const call = resumeCall<CheckoutStep>(ctx, 'checkout', { method });
  return call.run(async resumed => {
    if (resumed.step === 'start') {
      let mcpSuspended = false; // true once this round suspends: a finally then waits for the round that leaves its try
      switch (method) {
      case 'card':
        try {
          requireClientSupport(ctx, ['elicitation']);
          const mcpRound = await call.suspend({ step: 'awaiting-card' }, {
            card: inputRequired.elicit({
              message: 'Pay by card?',
              requestedSchema: cardSchema,
            }),
          });
          mcpSuspended = true;
          return mcpRound;
        } finally {
          if (!mcpSuspended) {
            ledger.push(`checkout ${method}`);
          }
        }
      default:
        ledger.push(`checkout ${method} at the desk`);
        return { content: [{ type: 'text', text: 'pay at the desk' }] };
      }
    }
    if (resumed.step === 'awaiting-card') {
      mcpSwitch: {
        try {
          const card = elicitResult(ctx, 'card', cardSchema);
          return { content: [{ type: 'text', text: card.action === 'accept' ? `paid by ${card.content?.holder}` : `card ${card.action}` }] };
        } finally {
          ledger.push(`checkout ${method}`);
        }
      }
    }
    throw call.unknownStep(resumed);
  });
});
