import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

export const server = new McpServer({ name: 'fixture', version: '1.0.0' });

// Twelve entries, one question each: a 2026-07-28 client gives up after 10 rounds, so the loop is marked.
const CHECKLIST = ['tests', 'changelog', 'version', 'docs', 'migrations', 'flags', 'translations', 'load test', 'security scan', 'backups', 'rollback plan', 'on-call'];

server.registerTool('release', { inputSchema: { version: z.string() } }, async ({ version }) => {
  let done = 0;
  for (const item of CHECKLIST) {
    const answer = await server.server.elicitInput({
      message: `${version}: ${item} done?`,
      requestedSchema: { type: 'object', properties: { done: { type: 'boolean' } }, required: ['done'] },
    });
    if (answer.action === 'accept' && answer.content?.done === true) done++;
  }
  return { content: [{ type: 'text', text: `${version}: ${done}/${CHECKLIST.length}` }] };
});

// Three rounds at most: under the limit, rewritten with no word.
server.registerTool('retry-name', { inputSchema: {} }, async () => {
  for (let attempt = 0; attempt < 3; attempt++) {
    const answer = await server.server.elicitInput({
      message: 'Project name?',
      requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
    });
    if (answer.action === 'accept' && String(answer.content?.name).trim()) return { content: [{ type: 'text', text: String(answer.content?.name) }] };
  }
  return { content: [{ type: 'text', text: 'no name' }] };
});

// How often is not written out: a note says the limit, nothing is marked.
server.registerTool('survey', { inputSchema: { questions: z.array(z.string()) } }, async ({ questions }) => {
  const answers: string[] = [];
  for (const question of questions) {
    const answer = await server.server.elicitInput({
      message: question,
      requestedSchema: { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] },
    });
    if (answer.action === 'accept') answers.push(String(answer.content?.a));
  }
  return { content: [{ type: 'text', text: answers.join(', ') }] };
});

// Counted from 1 to 12, one question each: marked as well.
server.registerTool('pages', { inputSchema: {} }, async () => {
  const kept: number[] = [];
  for (let page = 1; page <= 12; page++) {
    const answer = await server.server.elicitInput({
      message: `Keep page ${page}?`,
      requestedSchema: { type: 'object', properties: { keep: { type: 'boolean' } }, required: ['keep'] },
    });
    if (answer.action === 'accept' && answer.content?.keep === true) kept.push(page);
  }
  return { content: [{ type: 'text', text: kept.join(',') }] };
});
