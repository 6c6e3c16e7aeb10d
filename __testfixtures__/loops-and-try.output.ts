import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { ask, resumable, rethrowIfSuspended, verifyRequestState } from './mcp-migrate-state.js';

export const server = new McpServer({ name: 'fixture', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });

// One elicitation per question: each round runs the loop from the start, the answers it already has replayed,
// and ends at the first question not answered yet.
resumable(server).registerTool('survey', { inputSchema: z.object({ questions: z.array(z.string()) }) }, async ({ questions }) => {
  const answers: string[] = [];
  for (const question of questions) {
    const answer = await ask(server.server, 'answer').elicitInput({
      message: question,
      requestedSchema: { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] },
    });
    if (answer.action === 'cancel') break;
    if (answer.action !== 'accept') continue;
    answers.push(String(answer.content?.a));
  }
  return { content: [{ type: 'text', text: `${answers.length} answers: ${answers.join(', ')}` }] };
});

// A classic for loop with an accumulator, and a sampling call per step.
resumable(server).registerTool('countdown', { inputSchema: z.object({ from: z.number() }) }, async ({ from }) => {
  let story = '';
  for (let i = from; i > 0; i--) {
    const line = await ask(server.server, 'line').createMessage({
      messages: [{ role: 'user', content: { type: 'text', text: `Line ${i} of the story so far: ${story}` } }],
      maxTokens: 20,
    });
    story += `${i}:${line.content.type === 'text' ? line.content.text : '?'} `;
  }
  return { content: [{ type: 'text', text: story.trim() || 'nothing to count' }] };
});

// Ask until the user accepts, at most three times.
resumable(server).registerTool('insist', { description: 'Asks until accepted' }, async () => {
  let tries = 0;
  let value = '';
  while (tries < 3) {
    tries++;
    const answer = await ask(server.server, 'answer').elicitInput({
      message: `Attempt ${tries}: your name?`,
      requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
    });
    if (answer.action === 'accept') {
      value = String(answer.content?.name);
      break;
    }
  }
  return { content: [{ type: 'text', text: value ? `Hello ${value} after ${tries} tries` : `Gave up after ${tries} tries` }] };
});

// The legacy await throws when the request fails; the catch still handles it, and starts with
// rethrowIfSuspended() so that it does not take the end of a round for a failure.
resumable(server).registerTool('careful', { description: 'Samples with a fallback' }, async () => {
  const label = 'careful';
  try {
    const result = await ask(server.server, 'result').createMessage({ messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }], maxTokens: 5 });
    return { content: [{ type: 'text', text: `${label}: ${result.model}` }] };
  } catch (error) {
    rethrowIfSuspended();
    return { content: [{ type: 'text', text: `${label}: no sampling (${error instanceof Error ? 'error' : 'unknown'})` }] };
  }
});
