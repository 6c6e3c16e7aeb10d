import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { ask, resumable, verifyRequestState } from './mcp-migrate-state.js';

export const server = new McpServer({ name: 'fixture', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });

// Twelve entries, one question each: a 2026-07-28 client gives up after 10 rounds, so the loop is marked.
const CHECKLIST = ['tests', 'changelog', 'version', 'docs', 'migrations', 'flags', 'translations', 'load test', 'security scan', 'backups', 'rollback plan', 'on-call'];

resumable(server).registerTool('release', { inputSchema: z.object({ version: z.string() }) }, async ({ version }) => {
  let done = 0;
  // mcp-migrate: tools/call release may ask 12 times in a loop (for (const item of CHECKLIST)): each iteration that asks is a round of a 2026-07-28 call, and a client gives up after its round limit (10 in the SDK's client; a 2025-era client is asked directly, with no limit), so a 2026-07-28 client fails the call once the loop asks for the 11th time. Ask for the items together (one question with a field per item), then run again
  for (const item of CHECKLIST) {
    const answer = await ask(server.server, 'answer').elicitInput({
      message: `${version}: ${item} done?`,
      requestedSchema: { type: 'object', properties: { done: { type: 'boolean' } }, required: ['done'] },
    });
    if (answer.action === 'accept' && answer.content?.done === true) done++;
  }
  return { content: [{ type: 'text', text: `${version}: ${done}/${CHECKLIST.length}` }] };
});

// Three rounds at most: under the limit, rewritten with no word.
resumable(server).registerTool('retry-name', { inputSchema: z.object({}) }, async () => {
  for (let attempt = 0; attempt < 3; attempt++) {
    const answer = await ask(server.server, 'answer').elicitInput({
      message: 'Project name?',
      requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
    });
    if (answer.action === 'accept' && String(answer.content?.name).trim()) return { content: [{ type: 'text', text: String(answer.content?.name) }] };
  }
  return { content: [{ type: 'text', text: 'no name' }] };
});

// How often is not written out: a note says the limit, nothing is marked.
resumable(server).registerTool('survey', { inputSchema: z.object({ questions: z.array(z.string()) }) }, async ({ questions }) => {
  const answers: string[] = [];
  for (const question of questions) {
    const answer = await ask(server.server, 'answer').elicitInput({
      message: question,
      requestedSchema: { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] },
    });
    if (answer.action === 'accept') answers.push(String(answer.content?.a));
  }
  return { content: [{ type: 'text', text: answers.join(', ') }] };
});

// Counted from 1 to 12, one question each: marked as well.
resumable(server).registerTool('pages', { inputSchema: z.object({}) }, async () => {
  const kept: number[] = [];
  // mcp-migrate: tools/call pages may ask 12 times in a loop (for (let page = 1; page <= 12; page++)): each iteration that asks is a round of a 2026-07-28 call, and a client gives up after its round limit (10 in the SDK's client; a 2025-era client is asked directly, with no limit), so a 2026-07-28 client fails the call once the loop asks for the 11th time. Ask for the items together (one question with a field per item), then run again
  for (let page = 1; page <= 12; page++) {
    const answer = await ask(server.server, 'answer').elicitInput({
      message: `Keep page ${page}?`,
      requestedSchema: { type: 'object', properties: { keep: { type: 'boolean' } }, required: ['keep'] },
    });
    if (answer.action === 'accept' && answer.content?.keep === true) kept.push(page);
  }
  return { content: [{ type: 'text', text: kept.join(',') }] };
});
