import { McpServer, inputRequired, type ElicitRequestFormParams } from '@modelcontextprotocol/server';
import { z } from 'zod';
import {
  elicitResult,
  requireClientSupport,
  resumeCall,
  samplingResult,
  verifyRequestState,
} from './mcp-migrate-state.js';

export const server = new McpServer({ name: 'fixture', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });

const surveySchema: ElicitRequestFormParams['requestedSchema'] = { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] };

// One elicitation per question: the loop re-enters mid-iteration on every round.
server.registerTool('survey', { inputSchema: z.object({ questions: z.array(z.string()) }) }, async ({ questions }, ctx) => {
  // mcp-migrate: input_required phases (MCP 2026-07-28); state sealed by ./mcp-migrate-state.js
  type SurveyStep = { step: 'awaiting-answer'; answers: string[]; mcpItems: string[]; mcpIndex: number };
  const askForAnswer = (question: string) => inputRequired.elicit({
    message: question,
    requestedSchema: surveySchema,
  });
  const call = resumeCall<SurveyStep>(ctx, 'survey', { questions });
  return call.run(async resumed => {
    if (resumed.step === 'start') {
      const answers: string[] = [];
      const mcpItems = [...questions];
      if (mcpItems.length > 0) {
        const mcpIndex = 0;
        const question = mcpItems[mcpIndex];
        return call.suspend({ step: 'awaiting-answer', answers, mcpItems, mcpIndex }, {
          answer: askForAnswer(question),
        });
      }
      return { content: [{ type: 'text', text: `${answers.length} answers: ${answers.join(', ')}` }] };
    }
    if (resumed.step === 'awaiting-answer') {
      const answers = resumed.answers;
      const mcpItems = resumed.mcpItems;
      for (let mcpIndex = resumed.mcpIndex, mcpFirst = true; mcpIndex < mcpItems.length; mcpIndex++, mcpFirst = false) {
        const question = mcpItems[mcpIndex];
        if (mcpFirst) {
          const answer = elicitResult(ctx, 'answer', surveySchema);
          if (answer.action === 'cancel') break;
          if (answer.action !== 'accept') continue;
          answers.push(String(answer.content?.a));
        } else {
          return call.suspend({ step: 'awaiting-answer', answers, mcpItems, mcpIndex }, {
            answer: askForAnswer(question),
          });
        }
      }
      return { content: [{ type: 'text', text: `${answers.length} answers: ${answers.join(', ')}` }] };
    }
    throw call.unknownStep(resumed);
  });
});

// A classic for loop with an accumulator, and a sampling call per step.
server.registerTool('countdown', { inputSchema: z.object({ from: z.number() }) }, async ({ from }, ctx) => {
  type CountdownStep = { step: 'awaiting-line'; story: string; i: number };
  const askForLine = (i: number, story: string) => inputRequired.createMessage({
    messages: [{ role: 'user', content: { type: 'text', text: `Line ${i} of the story so far: ${story}` } }],
    maxTokens: 20,
  });
  const call = resumeCall<CountdownStep>(ctx, 'countdown', { from });
  return call.run(async resumed => {
    if (resumed.step === 'start') {
      let story = '';
      {
        let i = from;
        if (i > 0) {
          return call.suspend({ step: 'awaiting-line', story, i }, {
            line: askForLine(i, story),
          });
        }
      }
      return { content: [{ type: 'text', text: story.trim() || 'nothing to count' }] };
    }
    if (resumed.step === 'awaiting-line') {
      let story = resumed.story;
      for (let i = resumed.i, mcpFirst = true; mcpFirst || (i > 0); mcpFirst = false, i--) {
        if (mcpFirst) {
          const line = samplingResult(ctx, 'line');
          story += `${i}:${line.content.type === 'text' ? line.content.text : '?'} `;
        } else {
          return call.suspend({ step: 'awaiting-line', story, i }, {
            line: askForLine(i, story),
          });
        }
      }
      return { content: [{ type: 'text', text: story.trim() || 'nothing to count' }] };
    }
    throw call.unknownStep(resumed);
  });
});

const insistSchema: ElicitRequestFormParams['requestedSchema'] = { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] };

// Ask until the user accepts, at most three times.
server.registerTool('insist', { description: 'Asks until accepted' }, async ctx => {
  type InsistStep = { step: 'awaiting-answer'; tries: number; value: string };
  const askForAnswer = (tries: number) => inputRequired.elicit({
    message: `Attempt ${tries}: your name?`,
    requestedSchema: insistSchema,
  });
  const call = resumeCall<InsistStep>(ctx, 'insist', undefined);
  return call.run(async resumed => {
    if (resumed.step === 'start') {
      let tries = 0;
      let value = '';
      if (tries < 3) {
        tries++;
        return call.suspend({ step: 'awaiting-answer', tries, value }, {
          answer: askForAnswer(tries),
        });
      }
      return { content: [{ type: 'text', text: value ? `Hello ${value} after ${tries} tries` : `Gave up after ${tries} tries` }] };
    }
    if (resumed.step === 'awaiting-answer') {
      let tries = resumed.tries;
      let value = resumed.value;
      for (let mcpFirst = true; mcpFirst || (tries < 3); mcpFirst = false) {
        if (mcpFirst) {
          const answer = elicitResult(ctx, 'answer', insistSchema);
          if (answer.action === 'accept') {
            value = String(answer.content?.name);
            break;
          }
        } else {
          tries++;
          return call.suspend({ step: 'awaiting-answer', tries, value }, {
            answer: askForAnswer(tries),
          });
        }
      }
      return { content: [{ type: 'text', text: value ? `Hello ${value} after ${tries} tries` : `Gave up after ${tries} tries` }] };
    }
    throw call.unknownStep(resumed);
  });
});

// The legacy await throws when the request fails; the catch still handles it.
server.registerTool('careful', { description: 'Samples with a fallback' }, async ctx => {
  type CarefulStep = { step: 'awaiting-result'; label: "careful" };
  const call = resumeCall<CarefulStep>(ctx, 'careful', undefined);
  return call.run(async resumed => {
    if (resumed.step === 'start') {
      const label = 'careful';
      try {
        requireClientSupport(ctx, ['sampling']);
        return await call.suspend({ step: 'awaiting-result', label }, {
          result: inputRequired.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }], maxTokens: 5 }),
        });
      } catch (error) {
        return { content: [{ type: 'text', text: `${label}: no sampling (${error instanceof Error ? 'error' : 'unknown'})` }] };
      }
    }
    if (resumed.step === 'awaiting-result') {
      const label = resumed.label;
      try {
        const result = samplingResult(ctx, 'result');
        return { content: [{ type: 'text', text: `${label}: ${result.model}` }] };
      } catch (error) {
        return { content: [{ type: 'text', text: `${label}: no sampling (${error instanceof Error ? 'error' : 'unknown'})` }] };
      }
    }
    throw call.unknownStep(resumed);
  });
});
