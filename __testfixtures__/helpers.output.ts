import {
  McpServer,
  inputRequired,
  type ElicitRequestFormParams,
} from '@modelcontextprotocol/server';
import { z } from 'zod';
import {
  elicitResult,
  resumeCall,
  samplingResult,
  verifyRequestState,
} from './mcp-migrate-state.js';

export const server = new McpServer({ name: 'fixture', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });

const DEFAULT_NAME = 'friend';

const nameSchema: ElicitRequestFormParams['requestedSchema'] = { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] };

server.registerTool('greet', { inputSchema: z.object({ greeting: z.string() }) }, async ({ greeting }, ctx) => {
  // mcp-migrate: input_required phases (MCP 2026-07-28); state sealed by ./mcp-migrate-state.js
  type GreetStep = { step: 'awaiting-answer'; askNameResult: string };
  const call = resumeCall<GreetStep>(ctx, 'greet', { greeting });
  return call.run(async resumed => {
    if (resumed.step === 'start') {
      const question = `${greeting}! Who are you?`;
      let askNameResult!: string;
      mcpInline: {
        const mcpQuestion: string = question;
        return call.suspend({ step: 'awaiting-answer', askNameResult }, {
          answer: inputRequired.elicit({
            message: mcpQuestion,
            requestedSchema: nameSchema,
          }),
        });
      }
    }
    if (resumed.step === 'awaiting-answer') {
      let askNameResult = resumed.askNameResult;
      mcpInline: {
        const answer = elicitResult(ctx, 'answer', nameSchema);
        if (answer.action !== 'accept') { askNameResult = DEFAULT_NAME; break mcpInline; }
        const name = String(answer.content?.name);
        { askNameResult = name.trim() === '' ? DEFAULT_NAME : name; break mcpInline; }
      }
      const name = askNameResult;
      return { content: [{ type: 'text', text: `${greeting}, ${name}` }] };
    }
    throw call.unknownStep(resumed);
  });
});

server.registerTool('introduce', { inputSchema: z.object({ topic: z.string() }) }, async ({ topic }, ctx) => {
  type IntroduceStep =
    | { step: 'awaiting-answer'; askNameResult2: string }
    | { step: 'awaiting-result'; name: string; summarizeResult: string };
  const call = resumeCall<IntroduceStep>(ctx, 'introduce', { topic });
  return call.run(async resumed => {
    if (resumed.step === 'start') {
      let askNameResult2!: string;
      mcpInline2: {
        const mcpQuestion2: string = 'Your name, for the introduction?';
        return call.suspend({ step: 'awaiting-answer', askNameResult2 }, {
          answer: inputRequired.elicit({
            message: mcpQuestion2,
            requestedSchema: nameSchema,
          }),
        });
      }
    }
    if (resumed.step === 'awaiting-answer') {
      let askNameResult2 = resumed.askNameResult2;
      mcpInline2: {
        const answer = elicitResult(ctx, 'answer', nameSchema);
        if (answer.action !== 'accept') { askNameResult2 = DEFAULT_NAME; break mcpInline2; }
        const name = String(answer.content?.name);
        { askNameResult2 = name.trim() === '' ? DEFAULT_NAME : name; break mcpInline2; }
      }
      const name = askNameResult2;
      let summarizeResult!: string;
      mcpInline3: {
        const mcpText: string = topic;
        const mcpWords: number = 10;
        return call.suspend({ step: 'awaiting-result', name, summarizeResult }, {
          result: inputRequired.createMessage({
            messages: [{ role: 'user', content: { type: 'text', text: `In ${mcpWords} words: ${mcpText}` } }],
            maxTokens: mcpWords * 4,
          }),
        });
      }
    }
    if (resumed.step === 'awaiting-result') {
      const name = resumed.name;
      let summarizeResult = resumed.summarizeResult;
      mcpInline3: {
        const result = samplingResult(ctx, 'result');
        { summarizeResult = result.content.type === 'text' ? result.content.text : ''; break mcpInline3; }
      }
      const blurb = summarizeResult;
      return { content: [{ type: 'text', text: `${name} presents ${topic}: ${blurb}` }] };
    }
    throw call.unknownStep(resumed);
  });
});

const checkSchema: ElicitRequestFormParams['requestedSchema'] = { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] };

server.registerTool('confirm', { description: 'Asks a name, then to confirm it' }, async ctx => {
  type ConfirmStep =
    | { step: 'awaiting-answer'; confirmNameResult: string; askNameResult3: string }
    | { step: 'awaiting-check'; confirmNameResult: string; name: string };
  const call = resumeCall<ConfirmStep>(ctx, 'confirm', undefined);
  return call.run(async resumed => {
    if (resumed.step === 'start') {
      let confirmNameResult!: string;
      mcpInline4: {
        const mcpQuestion3: string = 'Name to confirm?';
        let askNameResult3!: string;
        mcpInline5: {
          const mcpQuestion4: string = mcpQuestion3;
          return call.suspend({ step: 'awaiting-answer', confirmNameResult, askNameResult3 }, {
            answer: inputRequired.elicit({
              message: mcpQuestion4,
              requestedSchema: nameSchema,
            }),
          });
        }
      }
    }
    if (resumed.step === 'awaiting-answer') {
      let confirmNameResult = resumed.confirmNameResult;
      mcpInline4: {
        let askNameResult3 = resumed.askNameResult3;
        mcpInline5: {
          const answer = elicitResult(ctx, 'answer', nameSchema);
          if (answer.action !== 'accept') { askNameResult3 = DEFAULT_NAME; break mcpInline5; }
          const name = String(answer.content?.name);
          { askNameResult3 = name.trim() === '' ? DEFAULT_NAME : name; break mcpInline5; }
        }
        const name = askNameResult3;
        return call.suspend({ step: 'awaiting-check', confirmNameResult, name }, {
          check: inputRequired.elicit({
            message: `Is ${name} right?`,
            requestedSchema: checkSchema,
          }),
        });
      }
      const name = confirmNameResult;
      return { content: [{ type: 'text', text: `Confirmed: ${name}` }] };
    }
    if (resumed.step === 'awaiting-check') {
      let confirmNameResult = resumed.confirmNameResult;
      mcpInline4: {
        const name = resumed.name;
        const check = elicitResult(ctx, 'check', checkSchema);
        { confirmNameResult = check.action === 'accept' && check.content?.ok === true ? name : DEFAULT_NAME; break mcpInline4; }
      }
      const name = confirmNameResult;
      return { content: [{ type: 'text', text: `Confirmed: ${name}` }] };
    }
    throw call.unknownStep(resumed);
  });
});
