/**
 * src/analysis/units/journal.ts: what an asking handler does before a question and must not do twice,
 * journaled where it stands; the catch and finally blocks around a question guarded; what the handler does
 * after its last question left as it is (it runs once, on the round that finishes).
 */
import { describe, expect, it } from 'vitest';
import { analysed } from './support.js';

const HEAD = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { api } from './api.js';
const server = new McpServer({ name: 's', version: '1.0.0' });
const sure = { type: 'object' as const, properties: { ok: { type: 'boolean' as const } } };
let runs = 0;
`;
const API = `export const api = {
  async createDraft(title: string): Promise<{ id: string }> {
    const response = await fetch('https://cms.example/drafts', { method: 'POST', body: title });
    return (await response.json()) as { id: string };
  },
  async publish(id: string): Promise<void> {
    await fetch(\`https://cms.example/drafts/\${id}/publish\`, { method: 'POST' });
  },
};
`;

describe('work journaled before a question', () => {
  it('journals the effects before the question, guards the catch around it, and leaves the work after it', () => {
    const a = analysed({
      'server.ts': `${HEAD}
server.registerTool('post', { inputSchema: { title: z.string() } }, async ({ title }) => {
  runs++;
  const draft = await api.createDraft(title);
  try {
    const answer = await server.server.elicitInput({ message: \`Publish \${draft.id}?\`, requestedSchema: sure });
    if (answer.action === 'accept') await api.publish(draft.id);
  } catch (error) {
    console.error(error);
  }
  return { content: [{ type: 'text', text: draft.id }] };
});
`,
      'api.ts': API,
    });
    expect(a.plan()?.journaled).toEqual([{ range: 'runs++' }, { range: 'api.createDraft(title)' }]);
    expect(a.plan()?.guards).toEqual([{ block: '{ …' }]);
    expect(a.acted).toContain('journal server.ts');
  });

  it('journals nothing in a handler that asks first', () => {
    const a = analysed({
      'server.ts': `${HEAD}
server.registerTool('post', { inputSchema: { title: z.string() } }, async ({ title }) => {
  const answer = await server.server.elicitInput({ message: \`Publish \${title}?\`, requestedSchema: sure });
  if (answer.action === 'accept') await api.publish(title);
  runs++;
  return { content: [{ type: 'text', text: title }] };
});
`,
      'api.ts': API,
    });
    expect(a.plan()?.journaled).toBeUndefined();
    expect(a.acted.filter(u => u.startsWith('journal'))).toEqual([]);
  });
});
