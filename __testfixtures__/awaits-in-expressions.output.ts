import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { ask as askClient, journaled, resumable, verifyRequestState } from './mcp-migrate-state.js';

export const server = new McpServer({ name: 'fixture', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });

const moodSchema = { type: 'object' as const, properties: { mood: { type: 'string' as const } }, required: ['mood'] };

function describe(mood: unknown, model: string): string {
  return `${String(mood)} (summary by ${model})`;
}

// Two requests awaited as the arguments of one call.
resumable(server).registerTool('check-in', { inputSchema: z.object({ name: z.string() }) }, async ({ name }) => {
  const text = describe(
    (await askClient(server.server).elicitInput({ message: `How are you, ${name}?`, requestedSchema: moodSchema })).content?.mood,
    (await askClient(server.server).createMessage({ messages: [{ role: 'user', content: { type: 'text', text: `Greet ${name}` } }], maxTokens: 20 })).model,
  );
  return { content: [{ type: 'text', text }] };
});

// Two requests in one template literal.
resumable(server).registerTool('inventory', { description: 'Counts roots and asks for a label' }, async () => {
  const label = `${(await askClient(server.server).listRoots()).roots.length} roots, labelled ${(await askClient(server.server).elicitInput({ message: 'Label?', requestedSchema: { type: 'object', properties: { label: { type: 'string' } } } })).action}`;
  return { content: [{ type: 'text', text: label }] };
});

// A request sent only on one side of a conditional, or of a short-circuit.
resumable(server).registerTool('review', { inputSchema: z.object({ strict: z.boolean(), note: z.string().optional() }) }, async ({ strict, note }) => {
  const verdict = strict
    ? (await askClient(server.server).elicitInput({ message: 'Approve this change?', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } })).action
    : 'auto-approved';
  const comment = note ?? (await askClient(server.server).elicitInput({ message: 'Any comment?', requestedSchema: { type: 'object', properties: { text: { type: 'string' } } } })).content?.text;
  return { content: [{ type: 'text', text: `${verdict}: ${String(comment)}` }] };
});

// A call with an effect evaluated before the request: it still runs first, once.
let calls = 0;
const tick = () => ++calls;

resumable(server).registerTool('counted', { description: 'Counts calls around a request' }, async () => {
  const summary = [journaled(() => tick()), (await askClient(server.server).elicitInput({ message: 'Continue?', requestedSchema: { type: 'object', properties: {} } })).action, tick()];
  return { content: [{ type: 'text', text: summary.join(' ') }] };
});

// A request on the right of && and ||, as a statement of its own, and in an if's test.
resumable(server).registerTool('confirm', { inputSchema: z.object({ ask: z.boolean(), label: z.string() }) }, async ({ ask, label }) => {
  const log: string[] = [];
  ask && log.push((await askClient(server.server).elicitInput({ message: `Log ${label}?`, requestedSchema: { type: 'object', properties: {} } })).action);
  const named = label || (await askClient(server.server).elicitInput({ message: 'Name it?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } })).content?.name;
  if (ask && (await askClient(server.server).elicitInput({ message: 'Really?', requestedSchema: { type: 'object', properties: {} } })).action === 'accept') {
    return { content: [{ type: 'text', text: `confirmed ${String(named)} ${log.join(',')}` }] };
  }
  return { content: [{ type: 'text', text: `not confirmed ${String(named)} ${log.join(',')}` }] };
});

// A conditional returned directly.
resumable(server).registerTool('pick', { inputSchema: z.object({ choose: z.boolean() }) }, async ({ choose }) => {
  const tries = 'one pick';
  return choose
    ? {
        content: [
          { type: 'text', text: `${tries}: ${(await askClient(server.server).createMessage({ messages: [{ role: 'user', content: { type: 'text', text: 'Pick one' } }], maxTokens: 5 })).model}` },
        ],
      }
    : { content: [{ type: 'text', text: `${tries}: not sampled` }] };
});
