import { McpServer, inputRequired, type ElicitRequestFormParams } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { elicitResult, resumeCall, rootsResult, samplingResult, verifyRequestState } from './mcp-migrate-state.js';

export const server = new McpServer({ name: 'fixture', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });

const moodSchema = { type: 'object' as const, properties: { mood: { type: 'string' as const } }, required: ['mood'] };

function describe(mood: unknown, model: string): string {
  return `${String(mood)} (summary by ${model})`;
}

// Two requests awaited as the arguments of one call.
server.registerTool('check-in', { inputSchema: z.object({ name: z.string() }) }, async ({ name }, ctx) => {
  // mcp-migrate: input_required phases (MCP 2026-07-28); state sealed by ./mcp-migrate-state.js
  type CheckInStep = { step: 'awaiting-answer-and-sample' };
  const call = resumeCall<CheckInStep>(ctx, 'check-in', { name });
  return call.run(async resumed => {
    if (resumed.step === 'start') {
      return call.suspend({ step: 'awaiting-answer-and-sample' }, {
        answer: inputRequired.elicit({ message: `How are you, ${name}?`, requestedSchema: moodSchema }),
        sample: inputRequired.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: `Greet ${name}` } }], maxTokens: 20 }),
      });
    }
    if (resumed.step === 'awaiting-answer-and-sample') {
      const answer = elicitResult(ctx, 'answer', moodSchema);
      const sample = samplingResult(ctx, 'sample');
      const text = describe(
        answer.content?.mood,
        sample.model,
      );
      return { content: [{ type: 'text', text }] };
    }
    throw call.unknownStep(resumed);
  });
});

const inventorySchema: ElicitRequestFormParams['requestedSchema'] = { type: 'object', properties: { label: { type: 'string' } } };

// Two requests in one template literal.
server.registerTool('inventory', { description: 'Counts roots and asks for a label' }, async ctx => {
  type InventoryStep = { step: 'awaiting-root-list-and-answer' };
  const call = resumeCall<InventoryStep>(ctx, 'inventory', undefined);
  return call.run(async resumed => {
    if (resumed.step === 'start') {
      return call.suspend({ step: 'awaiting-root-list-and-answer' }, {
        rootList: inputRequired.listRoots(),
        answer: inputRequired.elicit({ message: 'Label?', requestedSchema: inventorySchema }),
      });
    }
    if (resumed.step === 'awaiting-root-list-and-answer') {
      const rootList = rootsResult(ctx, 'rootList');
      const answer = elicitResult(ctx, 'answer', inventorySchema);
      const label = `${rootList.roots.length} roots, labelled ${answer.action}`;
      return { content: [{ type: 'text', text: label }] };
    }
    throw call.unknownStep(resumed);
  });
});

const verdictSchema: ElicitRequestFormParams['requestedSchema'] = { type: 'object', properties: { ok: { type: 'boolean' } } };
const commentSchema: ElicitRequestFormParams['requestedSchema'] = { type: 'object', properties: { text: { type: 'string' } } };

// A request sent only on one side of a conditional, or of a short-circuit.
server.registerTool('review', { inputSchema: z.object({ strict: z.boolean(), note: z.string().optional() }) }, async ({ strict, note }, ctx) => {
  type ReviewStep =
    | { step: 'awaiting-verdict' }
    | { step: 'awaiting-comment'; verdict: "cancel" | "accept" | "decline" | "auto-approved" };
  const askForComment = () => inputRequired.elicit({ message: 'Any comment?', requestedSchema: commentSchema });
  const call = resumeCall<ReviewStep>(ctx, 'review', { strict, note });
  return call.run(async resumed => {
    if (resumed.step === 'start') {
      let verdict!: "cancel" | "accept" | "decline" | "auto-approved";
      if (strict) {
        return call.suspend({ step: 'awaiting-verdict' }, {
          verdict: inputRequired.elicit({ message: 'Approve this change?', requestedSchema: verdictSchema }),
        });
      } else {
        verdict = 'auto-approved';
      }
      let comment!: string | number | boolean | string[] | undefined;
      if (note == null) {
        return call.suspend({ step: 'awaiting-comment', verdict }, {
          comment: askForComment(),
        });
      } else {
        comment = note;
      }
      return { content: [{ type: 'text', text: `${verdict}: ${String(comment)}` }] };
    }
    if (resumed.step === 'awaiting-verdict') {
      let verdict: "cancel" | "accept" | "decline" | "auto-approved";
      verdict = elicitResult(ctx, 'verdict', verdictSchema).action;
      let comment!: string | number | boolean | string[] | undefined;
      if (note == null) {
        return call.suspend({ step: 'awaiting-comment', verdict }, {
          comment: askForComment(),
        });
      } else {
        comment = note;
      }
      return { content: [{ type: 'text', text: `${verdict}: ${String(comment)}` }] };
    }
    if (resumed.step === 'awaiting-comment') {
      let comment: string | number | boolean | string[] | undefined;
      const verdict = resumed.verdict;
      comment = elicitResult(ctx, 'comment', commentSchema).content?.text;
      return { content: [{ type: 'text', text: `${verdict}: ${String(comment)}` }] };
    }
    throw call.unknownStep(resumed);
  });
});

// A call with an effect evaluated before the request: it still runs first, once.
let calls = 0;
const tick = () => ++calls;

const countedSchema: ElicitRequestFormParams['requestedSchema'] = { type: 'object', properties: {} };

server.registerTool('counted', { description: 'Counts calls around a request' }, async ctx => {
  type CountedStep = { step: 'awaiting-answer'; tickResult: number };
  const call = resumeCall<CountedStep>(ctx, 'counted', undefined);
  return call.run(async resumed => {
    if (resumed.step === 'start') {
      const tickResult = tick();
      return call.suspend({ step: 'awaiting-answer', tickResult }, {
        answer: inputRequired.elicit({ message: 'Continue?', requestedSchema: countedSchema }),
      });
    }
    if (resumed.step === 'awaiting-answer') {
      const tickResult = resumed.tickResult;
      const answer = elicitResult(ctx, 'answer', countedSchema);
      const summary = [tickResult, answer.action, tick()];
      return { content: [{ type: 'text', text: summary.join(' ') }] };
    }
    throw call.unknownStep(resumed);
  });
});

const confirmElicitationSchema: ElicitRequestFormParams['requestedSchema'] = { type: 'object', properties: {} };
const namedSchema: ElicitRequestFormParams['requestedSchema'] = { type: 'object', properties: { name: { type: 'string' } } };

// A request on the right of && and ||, as a statement of its own, and in an if's test.
server.registerTool('confirm', { inputSchema: z.object({ ask: z.boolean(), label: z.string() }) }, async ({ ask, label }, ctx) => {
  type ConfirmStep =
    | { step: 'awaiting-elicitation'; log: string[] }
    | { step: 'awaiting-named'; log: string[] }
    | { step: 'awaiting-elicitation2'; log: string[]; named: string | number | boolean | string[] | undefined };
  const askForNamed = () => inputRequired.elicit({ message: 'Name it?', requestedSchema: namedSchema });
  const askForElicitation2 = () => inputRequired.elicit({ message: 'Really?', requestedSchema: confirmElicitationSchema });
  const call = resumeCall<ConfirmStep>(ctx, 'confirm', { ask, label });
  return call.run(async resumed => {
    if (resumed.step === 'start') {
      const log: string[] = [];
      if (ask) {
        return call.suspend({ step: 'awaiting-elicitation', log }, {
          elicitation: inputRequired.elicit({ message: `Log ${label}?`, requestedSchema: confirmElicitationSchema }),
        });
      }
      let named!: string | number | boolean | string[] | undefined;
      if (!label) {
        return call.suspend({ step: 'awaiting-named', log }, {
          named: askForNamed(),
        });
      } else {
        named = label;
      }
      let mcpAwait1!: boolean;
      if (ask) {
        return call.suspend({ step: 'awaiting-elicitation2', log, named }, {
          elicitation2: askForElicitation2(),
        });
      } else {
        mcpAwait1 = ask;
      }
      if (mcpAwait1) {
        return { content: [{ type: 'text', text: `confirmed ${String(named)} ${log.join(',')}` }] };
      }
      return { content: [{ type: 'text', text: `not confirmed ${String(named)} ${log.join(',')}` }] };
    }
    if (resumed.step === 'awaiting-elicitation') {
      const log = resumed.log;
      log.push(elicitResult(ctx, 'elicitation', confirmElicitationSchema).action);
      let named!: string | number | boolean | string[] | undefined;
      if (!label) {
        return call.suspend({ step: 'awaiting-named', log }, {
          named: askForNamed(),
        });
      } else {
        named = label;
      }
      let mcpAwait1!: boolean;
      if (ask) {
        return call.suspend({ step: 'awaiting-elicitation2', log, named }, {
          elicitation2: askForElicitation2(),
        });
      } else {
        mcpAwait1 = ask;
      }
      if (mcpAwait1) {
        return { content: [{ type: 'text', text: `confirmed ${String(named)} ${log.join(',')}` }] };
      }
      return { content: [{ type: 'text', text: `not confirmed ${String(named)} ${log.join(',')}` }] };
    }
    if (resumed.step === 'awaiting-named') {
      const log = resumed.log;
      let named: string | number | boolean | string[] | undefined;
      named = elicitResult(ctx, 'named', namedSchema).content?.name;
      let mcpAwait1!: boolean;
      if (ask) {
        return call.suspend({ step: 'awaiting-elicitation2', log, named }, {
          elicitation2: askForElicitation2(),
        });
      } else {
        mcpAwait1 = ask;
      }
      if (mcpAwait1) {
        return { content: [{ type: 'text', text: `confirmed ${String(named)} ${log.join(',')}` }] };
      }
      return { content: [{ type: 'text', text: `not confirmed ${String(named)} ${log.join(',')}` }] };
    }
    if (resumed.step === 'awaiting-elicitation2') {
      const log = resumed.log;
      let mcpAwait1: boolean;
      const named = resumed.named;
      mcpAwait1 = elicitResult(ctx, 'elicitation2', confirmElicitationSchema).action === 'accept';
      if (mcpAwait1) {
        return { content: [{ type: 'text', text: `confirmed ${String(named)} ${log.join(',')}` }] };
      }
      return { content: [{ type: 'text', text: `not confirmed ${String(named)} ${log.join(',')}` }] };
    }
    throw call.unknownStep(resumed);
  });
});

// A conditional returned directly.
server.registerTool('pick', { inputSchema: z.object({ choose: z.boolean() }) }, async ({ choose }, ctx) => {
  type PickStep = { step: 'awaiting-sampling'; tries: "one pick" };
  const call = resumeCall<PickStep>(ctx, 'pick', { choose });
  return call.run(async resumed => {
    if (resumed.step === 'start') {
      const tries = 'one pick';
      if (choose) {
        return call.suspend({ step: 'awaiting-sampling', tries }, {
          sampling: inputRequired.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: 'Pick one' } }], maxTokens: 5 }),
        });
      } else {
        return { content: [{ type: 'text', text: `${tries}: not sampled` }] };
      }
    }
    if (resumed.step === 'awaiting-sampling') {
      const tries = resumed.tries;
      return {
        content: [
          { type: 'text', text: `${tries}: ${samplingResult(ctx, 'sampling').model}` },
        ],
      };
    }
    throw call.unknownStep(resumed);
  });
});
