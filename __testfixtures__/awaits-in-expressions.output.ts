import {
  McpServer,
  inputRequired,
  type ElicitRequestFormParams,
} from '@modelcontextprotocol/server';
import { z } from 'zod';
import {
  elicitResult,
  resumeCall,
  rootsResult,
  samplingResult,
  verifyRequestState,
} from './mcp-migrate-state.js';

export const server = new McpServer({ name: 'fixture', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });

const moodSchema = { type: 'object' as const, properties: { mood: { type: 'string' as const } }, required: ['mood'] };

function describe(mood: unknown, model: string): string {
  return `${String(mood)} (summary by ${model})`;
}

// Two requests awaited as the arguments of one call.
server.registerTool('check-in', { inputSchema: z.object({ name: z.string() }) }, async ({ name }, ctx) => {
  // mcp-migrate: input_required phases (MCP 2026-07-28); state sealed by ./mcp-migrate-state.js
  const call = resumeCall(ctx, 'check-in', { name });
  return call.run(async resumed => {
    if (resumed.phase === 0) {
      return call.suspend(1, {}, {
        answer: inputRequired.elicit({ message: `How are you, ${name}?`, requestedSchema: moodSchema }),
        sample: inputRequired.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: `Greet ${name}` } }], maxTokens: 20 }),
      });
    }
    if (resumed.phase === 1) {
      const answer = elicitResult(ctx, 'answer', moodSchema);
      const sample = samplingResult(ctx, 'sample');
      const text = describe(
        answer.content?.mood,
        sample.model,
      );
      return { content: [{ type: 'text', text }] };
    }
    throw call.unknownPhase(resumed);
  });
});

const inventorySchema: ElicitRequestFormParams['requestedSchema'] = { type: 'object', properties: { label: { type: 'string' } } };

// Two requests in one template literal.
server.registerTool('inventory', { description: 'Counts roots and asks for a label' }, async ctx => {
  const call = resumeCall(ctx, 'inventory', undefined);
  return call.run(async resumed => {
    if (resumed.phase === 0) {
      return call.suspend(1, {}, {
        rootList: inputRequired.listRoots(),
        answer: inputRequired.elicit({ message: 'Label?', requestedSchema: inventorySchema }),
      });
    }
    if (resumed.phase === 1) {
      const rootList = rootsResult(ctx, 'rootList');
      const answer = elicitResult(ctx, 'answer', inventorySchema);
      const label = `${rootList.roots.length} roots, labelled ${answer.action}`;
      return { content: [{ type: 'text', text: label }] };
    }
    throw call.unknownPhase(resumed);
  });
});

const verdictSchema: ElicitRequestFormParams['requestedSchema'] = { type: 'object', properties: { ok: { type: 'boolean' } } };
const commentSchema: ElicitRequestFormParams['requestedSchema'] = { type: 'object', properties: { text: { type: 'string' } } };

// A request sent only on one side of a conditional, or of a short-circuit.
server.registerTool('review', { inputSchema: z.object({ strict: z.boolean(), note: z.string().optional() }) }, async ({ strict, note }, ctx) => {
  const call = resumeCall(ctx, 'review', { strict, note });
  return call.run(async resumed => {
    if (resumed.phase === 0) {
      let verdict!: "cancel" | "accept" | "decline" | "auto-approved";
      if (strict) {
        return call.suspend(1, {}, {
          verdict: inputRequired.elicit({ message: 'Approve this change?', requestedSchema: verdictSchema }),
        });
      } else {
        verdict = 'auto-approved';
      }
      let comment!: string | number | boolean | string[] | undefined;
      if (note == null) {
        return call.suspend(2, { verdict }, {
          comment: inputRequired.elicit({ message: 'Any comment?', requestedSchema: commentSchema }),
        });
      } else {
        comment = note;
      }
      return { content: [{ type: 'text', text: `${verdict}: ${String(comment)}` }] };
    }
    if (resumed.phase === 1) {
      let verdict: "cancel" | "accept" | "decline" | "auto-approved";
      verdict = elicitResult(ctx, 'verdict', verdictSchema).action;
      let comment!: string | number | boolean | string[] | undefined;
      if (note == null) {
        return call.suspend(2, { verdict }, {
          comment: inputRequired.elicit({ message: 'Any comment?', requestedSchema: commentSchema }),
        });
      } else {
        comment = note;
      }
      return { content: [{ type: 'text', text: `${verdict}: ${String(comment)}` }] };
    }
    if (resumed.phase === 2) {
      let comment: string | number | boolean | string[] | undefined;
      let verdict: "cancel" | "accept" | "decline" | "auto-approved" = resumed.locals.verdict;
      comment = elicitResult(ctx, 'comment', commentSchema).content?.text;
      return { content: [{ type: 'text', text: `${verdict}: ${String(comment)}` }] };
    }
    throw call.unknownPhase(resumed);
  });
});

// A call with an effect evaluated before the request: it still runs first, once.
let calls = 0;
const tick = () => ++calls;

const countedSchema: ElicitRequestFormParams['requestedSchema'] = { type: 'object', properties: {} };

server.registerTool('counted', { description: 'Counts calls around a request' }, async ctx => {
  const call = resumeCall(ctx, 'counted', undefined);
  return call.run(async resumed => {
    if (resumed.phase === 0) {
      const tickResult = tick();
      return call.suspend(1, { tickResult }, {
        answer: inputRequired.elicit({ message: 'Continue?', requestedSchema: countedSchema }),
      });
    }
    if (resumed.phase === 1) {
      const tickResult: number = resumed.locals.tickResult;
      const answer = elicitResult(ctx, 'answer', countedSchema);
      const summary = [tickResult, answer.action, tick()];
      return { content: [{ type: 'text', text: summary.join(' ') }] };
    }
    throw call.unknownPhase(resumed);
  });
});

const confirmElicitationSchema: ElicitRequestFormParams['requestedSchema'] = { type: 'object', properties: {} };
const namedSchema: ElicitRequestFormParams['requestedSchema'] = { type: 'object', properties: { name: { type: 'string' } } };

// A request on the right of && and ||, as a statement of its own, and in an if's test.
server.registerTool('confirm', { inputSchema: z.object({ ask: z.boolean(), label: z.string() }) }, async ({ ask, label }, ctx) => {
  const call = resumeCall(ctx, 'confirm', { ask, label });
  return call.run(async resumed => {
    if (resumed.phase === 0) {
      const log: string[] = [];
      if (ask) {
        return call.suspend(1, { log }, {
          elicitation: inputRequired.elicit({ message: `Log ${label}?`, requestedSchema: confirmElicitationSchema }),
        });
      }
      let named!: string | number | boolean | string[] | undefined;
      if (!label) {
        return call.suspend(2, { log }, {
          named: inputRequired.elicit({ message: 'Name it?', requestedSchema: namedSchema }),
        });
      } else {
        named = label;
      }
      let mcpAwait1!: boolean;
      if (ask) {
        return call.suspend(3, { log, named }, {
          mcpAwait1: inputRequired.elicit({ message: 'Really?', requestedSchema: confirmElicitationSchema }),
        });
      } else {
        mcpAwait1 = ask;
      }
      if (mcpAwait1) {
        return { content: [{ type: 'text', text: `confirmed ${String(named)} ${log.join(',')}` }] };
      }
      return { content: [{ type: 'text', text: `not confirmed ${String(named)} ${log.join(',')}` }] };
    }
    if (resumed.phase === 1) {
      const log: string[] = resumed.locals.log;
      log.push(elicitResult(ctx, 'elicitation', confirmElicitationSchema).action);
      let named!: string | number | boolean | string[] | undefined;
      if (!label) {
        return call.suspend(2, { log }, {
          named: inputRequired.elicit({ message: 'Name it?', requestedSchema: namedSchema }),
        });
      } else {
        named = label;
      }
      let mcpAwait1!: boolean;
      if (ask) {
        return call.suspend(3, { log, named }, {
          mcpAwait1: inputRequired.elicit({ message: 'Really?', requestedSchema: confirmElicitationSchema }),
        });
      } else {
        mcpAwait1 = ask;
      }
      if (mcpAwait1) {
        return { content: [{ type: 'text', text: `confirmed ${String(named)} ${log.join(',')}` }] };
      }
      return { content: [{ type: 'text', text: `not confirmed ${String(named)} ${log.join(',')}` }] };
    }
    if (resumed.phase === 2) {
      const log: string[] = resumed.locals.log;
      let named: string | number | boolean | string[] | undefined;
      named = elicitResult(ctx, 'named', namedSchema).content?.name;
      let mcpAwait1!: boolean;
      if (ask) {
        return call.suspend(3, { log, named }, {
          mcpAwait1: inputRequired.elicit({ message: 'Really?', requestedSchema: confirmElicitationSchema }),
        });
      } else {
        mcpAwait1 = ask;
      }
      if (mcpAwait1) {
        return { content: [{ type: 'text', text: `confirmed ${String(named)} ${log.join(',')}` }] };
      }
      return { content: [{ type: 'text', text: `not confirmed ${String(named)} ${log.join(',')}` }] };
    }
    if (resumed.phase === 3) {
      const log: string[] = resumed.locals.log;
      let mcpAwait1: boolean;
      let named: string | number | boolean | string[] | undefined = resumed.locals.named;
      mcpAwait1 = elicitResult(ctx, 'mcpAwait1', confirmElicitationSchema).action === 'accept';
      if (mcpAwait1) {
        return { content: [{ type: 'text', text: `confirmed ${String(named)} ${log.join(',')}` }] };
      }
      return { content: [{ type: 'text', text: `not confirmed ${String(named)} ${log.join(',')}` }] };
    }
    throw call.unknownPhase(resumed);
  });
});

// A conditional returned directly.
server.registerTool('pick', { inputSchema: z.object({ choose: z.boolean() }) }, async ({ choose }, ctx) => {
  const call = resumeCall(ctx, 'pick', { choose });
  return call.run(async resumed => {
    if (resumed.phase === 0) {
      const tries = 'one pick';
      if (choose) {
        return call.suspend(1, { tries }, {
          sampling: inputRequired.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: 'Pick one' } }], maxTokens: 5 }),
        });
      } else {
        return { content: [{ type: 'text', text: `${tries}: not sampled` }] };
      }
    }
    if (resumed.phase === 1) {
      const tries: "one pick" = resumed.locals.tries;
      return {
        content: [
          { type: 'text', text: `${tries}: ${samplingResult(ctx, 'sampling').model}` },
        ],
      };
    }
    throw call.unknownPhase(resumed);
  });
});
