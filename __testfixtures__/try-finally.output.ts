import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { ask, journaled, resumable, rethrowIfSuspended, verifyRequestState } from './mcp-migrate-state.js';

export const server = new McpServer({ name: 'fixture', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });

// What the finally blocks did, read back (and cleared) by the ledger tool: each must run once per call.
const ledger: string[] = [];
const held = new Set<string>();

server.registerTool('ledger', { description: 'What the finally blocks did since the last look' }, async () => {
  return { content: [{ type: 'text', text: ledger.splice(0).join(' | ') || 'nothing' }] };
});

// A seat is held while the user confirms and released however the call ends. Whether it is held is read
// before the handler holds it, so that read is journaled: the retry reads what the first round read.
resumable(server).registerTool('reserve', { inputSchema: z.object({ seat: z.string() }) }, async ({ seat }) => {
  if (journaled(() => held.has(seat))) return { content: [{ type: 'text', text: `${seat} is already held` }] };
  held.add(seat);
  try {
    const answer = await ask(server.server, 'answer').elicitInput({
      message: `Reserve seat ${seat}?`,
      requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
    });
    if (answer.action === 'cancel') throw new Error('cancelled by the user');
    if (answer.action !== 'accept') return { content: [{ type: 'text', text: `${seat} not reserved (${answer.action})` }] };
    return { content: [{ type: 'text', text: `${seat} reserved for ${answer.content?.name}` }] };
  } catch (error) {
    rethrowIfSuspended();
    return { content: [{ type: 'text', text: `${seat} not reserved: ${error instanceof Error ? error.message : 'unknown error'}` }] };
  } finally {
    rethrowIfSuspended();
    held.delete(seat);
    ledger.push(`released ${seat}`);
  }
});

// Two requests, the second in a nested try: each catch and finally starts with rethrowIfSuspended(), so each
// finally runs once, inner first, when the call ends; the outer catch sees what a request threw (a client
// without sampling).
resumable(server).registerTool('publish', { inputSchema: z.object({ topic: z.string() }) }, async ({ topic }) => {
  const trail: string[] = [];
  try {
    trail.push('drafted');
    const draft = await ask(server.server, 'draft').createMessage({
      messages: [{ role: 'user', content: { type: 'text', text: `Write about ${topic}` } }],
      maxTokens: 50,
    });
    const text = draft.content.type === 'text' ? draft.content.text : '';
    if (!text) return { content: [{ type: 'text', text: 'empty draft' }] };
    try {
      const review = await ask(server.server, 'review').elicitInput({
        message: `Publish "${text}"?`,
        requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
      });
      if (review.action !== 'accept' || !review.content?.ok) return { content: [{ type: 'text', text: `kept as a draft: ${text}` }] };
      trail.push('published');
    } finally {
      rethrowIfSuspended();
      trail.push('review closed');
    }
  } catch {
    rethrowIfSuspended();
    return { content: [{ type: 'text', text: `${topic} not published: a request failed` }] };
  } finally {
    rethrowIfSuspended();
    ledger.push(`publish ${topic}: ${trail.join(' > ')}`);
  }
  return { content: [{ type: 'text', text: `published: ${trail.join(' > ')}` }] };
});

// A finally that returns: its result wins over the try's, and over the throw.
resumable(server).registerTool('workspace', { description: 'Counts the roots, whatever happens' }, async () => {
  let status = 'not asked';
  try {
    const { roots } = await ask(server.server).listRoots();
    status = `${roots.length} roots`;
    if (roots.length === 0) throw new Error('no roots');
    return { content: [{ type: 'text', text: `first root ${roots[0]!.uri}` }] };
  } finally {
    rethrowIfSuspended();
    ledger.push(`workspace: ${status}`);
    // eslint-disable-next-line no-unsafe-finally
    return { content: [{ type: 'text', text: `workspace status: ${status}` }] };
  }
});

// A try/finally in a switch case: every case returns, the finally runs once for the card.
resumable(server).registerTool('checkout', { inputSchema: z.object({ method: z.enum(['card', 'cash']) }) }, async ({ method }) => {
  switch (method) {
    case 'card':
      try {
        const card = await ask(server.server, 'card').elicitInput({
          message: 'Pay by card?',
          requestedSchema: { type: 'object', properties: { holder: { type: 'string' } }, required: ['holder'] },
        });
        return { content: [{ type: 'text', text: card.action === 'accept' ? `paid by ${card.content?.holder}` : `card ${card.action}` }] };
      } finally {
        rethrowIfSuspended();
        ledger.push(`checkout ${method}`);
      }
    default:
      ledger.push(`checkout ${method} at the desk`);
      return { content: [{ type: 'text', text: 'pay at the desk' }] };
  }
});
