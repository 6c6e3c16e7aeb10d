import { McpServer, inputRequired, type ElicitRequestFormParams } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { elicitResult, resumeCall, samplingResult, verifyRequestState } from './mcp-migrate-state.js';

export const server = new McpServer({ name: 'fixture', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });

const DEFAULT_NAME = 'friend';

const nameSchema: ElicitRequestFormParams['requestedSchema'] = { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] };

server.registerTool('greet', { inputSchema: z.object({ greeting: z.string() }) }, async ({ greeting }, ctx) => {
  // mcp-migrate: input_required phases (MCP 2026-07-28); state sealed by ./mcp-migrate-state.js
  type GreetStep = { step: 'awaiting-answer' };
  const call = resumeCall<GreetStep>(ctx, 'greet', { greeting });
  return call.run(async resumed => {
    if (resumed.step === 'start') {
      const question = `${greeting}! Who are you?`;
      return call.suspend({ step: 'awaiting-answer' }, {
        answer: inputRequired.elicit({
          message: question,
          requestedSchema: nameSchema,
        }),
      });
    }
    if (resumed.step === 'awaiting-answer') {
      let name: string;
      const answer = elicitResult(ctx, 'answer', nameSchema);
      if (answer.action !== 'accept') {
        name = DEFAULT_NAME;
      } else {
        const name2 = String(answer.content?.name);
        name = name2.trim() === '' ? DEFAULT_NAME : name2;
      }
      return { content: [{ type: 'text', text: `${greeting}, ${name}` }] };
    }
    throw call.unknownStep(resumed);
  });
});

server.registerTool('introduce', { inputSchema: z.object({ topic: z.string() }) }, async ({ topic }, ctx) => {
  type IntroduceStep =
    | { step: 'awaiting-answer' }
    | { step: 'awaiting-result'; name: string };
  const call = resumeCall<IntroduceStep>(ctx, 'introduce', { topic });
  return call.run(async resumed => {
    if (resumed.step === 'start') {
      return call.suspend({ step: 'awaiting-answer' }, {
        answer: inputRequired.elicit({
          message: 'Your name, for the introduction?',
          requestedSchema: nameSchema,
        }),
      });
    }
    if (resumed.step === 'awaiting-answer') {
      let name: string;
      const answer = elicitResult(ctx, 'answer', nameSchema);
      if (answer.action !== 'accept') {
        name = DEFAULT_NAME;
      } else {
        const name3 = String(answer.content?.name);
        name = name3.trim() === '' ? DEFAULT_NAME : name3;
      }
      const words: number = 10;
      return call.suspend({ step: 'awaiting-result', name }, {
        result: inputRequired.createMessage({
          messages: [{ role: 'user', content: { type: 'text', text: `In ${words} words: ${topic}` } }],
          maxTokens: words * 4,
        }),
      });
    }
    if (resumed.step === 'awaiting-result') {
      const name = resumed.name;
      const result = samplingResult(ctx, 'result');
      const blurb: string = result.content.type === 'text' ? result.content.text : '';
      return { content: [{ type: 'text', text: `${name} presents ${topic}: ${blurb}` }] };
    }
    throw call.unknownStep(resumed);
  });
});

const checkSchema: ElicitRequestFormParams['requestedSchema'] = { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] };

server.registerTool('confirm', { description: 'Asks a name, then to confirm it' }, async ctx => {
  type ConfirmStep =
    | { step: 'awaiting-answer' }
    | { step: 'awaiting-check'; name4: string };
  const call = resumeCall<ConfirmStep>(ctx, 'confirm', undefined);
  return call.run(async resumed => {
    if (resumed.step === 'start') {
      const question: string = 'Name to confirm?';
      return call.suspend({ step: 'awaiting-answer' }, {
        answer: inputRequired.elicit({
          message: question,
          requestedSchema: nameSchema,
        }),
      });
    }
    if (resumed.step === 'awaiting-answer') {
      let name4: string;
      const answer = elicitResult(ctx, 'answer', nameSchema);
      if (answer.action !== 'accept') {
        name4 = DEFAULT_NAME;
      } else {
        const name = String(answer.content?.name);
        name4 = name.trim() === '' ? DEFAULT_NAME : name;
      }
      return call.suspend({ step: 'awaiting-check', name4 }, {
        check: inputRequired.elicit({
          message: `Is ${name4} right?`,
          requestedSchema: checkSchema,
        }),
      });
    }
    if (resumed.step === 'awaiting-check') {
      const name4 = resumed.name4;
      const check = elicitResult(ctx, 'check', checkSchema);
      const name: string = check.action === 'accept' && check.content?.ok === true ? name4 : DEFAULT_NAME;
      return { content: [{ type: 'text', text: `Confirmed: ${name}` }] };
    }
    throw call.unknownStep(resumed);
  });
});
