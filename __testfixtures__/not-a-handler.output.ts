import { McpServer, inputRequired, type ElicitRequestFormParams } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { elicitResult, resumeCall, samplingResult, verifyRequestState } from './mcp-migrate-state.js';

const server = new McpServer({ name: 'fixture', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });

let cachedRoots: string[] = [];

server.server.oninitialized = async () => {
  // mcp-migrate: roots request in server.server.oninitialized: MCP 2026-07-28 has no server-initiated requests outside tools/call, prompts/get and resources/read; request it from inside the tool that needs it (return inputRequired) or read it lazily there
  const { roots } = await server.server.listRoots();
  cachedRoots = roots.map(r => r.uri);
};

const helloSchema: ElicitRequestFormParams['requestedSchema'] = { type: 'object', properties: { name: { type: 'string' } } };

server.registerTool('hello', { inputSchema: z.object({ greeting: z.string() }) }, async ({ greeting }, ctx) => {
  // mcp-migrate: input_required phases (MCP 2026-07-28); state sealed by ./mcp-migrate-state.js
  type HelloStep = { step: 'awaiting-answer' };
  const call = resumeCall<HelloStep>(ctx, 'hello', { greeting });
  return call.run(async resumed => {
    if (resumed.step === 'start') {
      return call.suspend({ step: 'awaiting-answer' }, {
        answer: inputRequired.elicit({ message: 'Name?', requestedSchema: helloSchema }),
      });
    }
    if (resumed.step === 'awaiting-answer') {
      const answer = elicitResult(ctx, 'answer', helloSchema);
      const name: string = answer.action === 'accept' ? String(answer.content?.name) : 'anonymous';
      return { content: [{ type: 'text', text: `${greeting}, ${name} (${cachedRoots.length} roots)` }] };
    }
    throw call.unknownStep(resumed);
  });
});

export { server };

type Send = (request: { method: string; params?: Record<string, unknown> }) => Promise<unknown>;

async function sampleWith(send: Send, text: string): Promise<unknown> {
  return send({ method: 'sampling/createMessage', params: { messages: [{ role: 'user', content: { type: 'text', text } }], maxTokens: 5 } });
}

server.registerTool('delegate', { inputSchema: z.object({ text: z.string() }) }, async ({ text }, ctx) => {
  type DelegateStep = { step: 'awaiting-direct'; result: unknown };
  const call = resumeCall<DelegateStep>(ctx, 'delegate', { text });
  return call.run(async resumed => {
    if (resumed.step === 'start') {
      const result = await sampleWith(request => ctx.mcpReq.send(request as never, {} as never), text);
      {
        return call.suspend({ step: 'awaiting-direct', result }, {
          direct: inputRequired.createMessage({ messages: [{ role: 'user', content: { type: 'text', text } }], maxTokens: 5 }),
        });
      }
    }
    if (resumed.step === 'awaiting-direct') {
      const result = resumed.result;
      const direct: unknown = samplingResult(ctx, 'direct');
      return { content: [{ type: 'text', text: `${String(result)} ${String(direct)}` }] };
    }
    throw call.unknownStep(resumed);
  });
});

/** Exported: other modules may call it, so it stays (marked) even though no handler here does. */
export async function askAge(): Promise<number> {
  // mcp-migrate: elicitation request in helper askAge(), not directly in a handler: no handler call reaching it was inlined; this body is left as it is and still sends the request to any caller outside the project: migrate it by hand for them, or remove it when nothing calls it
  const answer = await server.server.elicitInput({ message: 'Age?', requestedSchema: { type: 'object', properties: { age: { type: 'number' } } } });
  return answer.action === 'accept' ? Number(answer.content?.age) : 0;
}

/** Recursive: the cycle is marked at the call and named, never unrolled. */
async function askUntilYes(tries: number): Promise<boolean> {
  // mcp-migrate: elicitation request in helper askUntilYes(), not directly in a handler: no handler call reaching it was inlined; 1 call reaching it is marked where it is made; this body is left as it is and still sends the request to those callers and any caller outside the project: migrate it by hand for them, or remove it when nothing calls it
  const answer = await server.server.elicitInput({ message: 'Ready?', requestedSchema: { type: 'object', properties: { ready: { type: 'boolean' } } } });
  if (answer.action === 'accept' || tries <= 1) return answer.action === 'accept';
  return askUntilYes(tries - 1);
}

server.registerTool('insist', { description: 'Asks until yes' }, async () => {
  // mcp-migrate: askUntilYes() → askUntilYes() is a cycle of helpers: not inlined (a recursive helper is never unrolled), so its elicitation request is not migrated; break the cycle, or return inputRequired from the handler by hand
  const ready = await askUntilYes(3);
  return { content: [{ type: 'text', text: String(ready) }] };
});

/** Registered by name but also called directly: its callers would see input_required results, so it stays a helper. */
async function askNickname() {
  // mcp-migrate: elicitation request in askNickname(), passed to server.registerTool() by name but also used otherwise: its other callers would see input_required results, so it is not rewritten; give the registration a function of its own (a shared helper it calls is inlined there), or migrate by hand
  const answer = await server.server.elicitInput({
    message: 'Your nickname?',
    requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
  });
  return { content: [{ type: 'text' as const, text: answer.action === 'accept' ? String(answer.content?.name) : 'anonymous' }] };
}

server.registerTool('ask-name', { description: 'Asks a name' }, askNickname);

export async function greetTwice() {
  return [await askNickname(), await askNickname()];
}
