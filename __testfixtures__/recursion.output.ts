import { McpServer, inputRequired, type ElicitRequestFormParams } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { elicitResult, resumeCall, verifyRequestState } from './mcp-migrate-state.js';

const server = new McpServer({ name: 'fixture', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });

interface Node {
  name: string;
  children: Node[];
}

/** A synchronous tree walk: recursive, but no member of the cycle makes a request. */
function countNodes(node: Node): number {
  return 1 + node.children.reduce((n, child) => n + countNodes(child), 0);
}

/** Mutual recursion without a request either. */
function isEven(n: number): boolean {
  return n === 0 ? true : isOdd(n - 1);
}
function isOdd(n: number): boolean {
  return n === 0 ? false : isEven(n - 1);
}

/** An async walk that awaits only itself. */
async function depth(node: Node): Promise<number> {
  let deepest = 0;
  for (const child of node.children) deepest = Math.max(deepest, await depth(child));
  return deepest + 1;
}

const treeSchema: ElicitRequestFormParams['requestedSchema'] = { type: 'object', properties: { keep: { type: 'boolean' } } };

server.registerTool('tree', { inputSchema: z.object({ size: z.number() }) }, async ({ size }, ctx) => {
  // mcp-migrate: input_required phases (MCP 2026-07-28); state sealed by ./mcp-migrate-state.js
  type TreeStep = { step: 'awaiting-answer' };
  const call = resumeCall<TreeStep>(ctx, 'tree', { size });
  return call.run(async resumed => {
    if (resumed.step === 'start') {
      const tree: Node = { name: 'root', children: Array.from({ length: size }, (_, i) => ({ name: `c${i}`, children: [] })) };
      const count = countNodes(tree);
      const even = isEven(count);
      const levels = await depth(tree);
      return call.suspend({ step: 'awaiting-answer' }, {
        answer: inputRequired.elicit({
          message: `${count} nodes (${even ? 'even' : 'odd'}), ${levels} levels: keep them?`,
          requestedSchema: treeSchema,
        }),
      });
    }
    if (resumed.step === 'awaiting-answer') {
      const answer = elicitResult(ctx, 'answer', treeSchema);
      return { content: [{ type: 'text', text: answer.action === 'accept' && answer.content?.keep === true ? 'kept' : 'dropped' }] };
    }
    throw call.unknownStep(resumed);
  });
});

/** A walk that asks at every node: this cycle does reach a request, so the call is marked (never unrolled). */
async function confirmEach(node: Node): Promise<string[]> {
  const kept: string[] = [];
  for (const child of node.children) kept.push(...(await confirmEach(child)));
  return (await keep(node.name)) ? [node.name, ...kept] : kept;
}

async function keep(name: string): Promise<boolean> {
  // mcp-migrate: elicitation request in helper keep(), not directly in a handler: no handler call reaching it was inlined; 1 call reaching it is marked where it is made; this body is left as it is and still sends the request to those callers and any caller outside the project: migrate it by hand for them, or remove it when nothing calls it
  const answer = await server.server.elicitInput({ message: `Keep ${name}?`, requestedSchema: { type: 'object', properties: {} } });
  return answer.action === 'accept';
}

server.registerTool('prune', { inputSchema: z.object({ size: z.number() }) }, async ({ size }) => {
  const tree: Node = { name: 'root', children: Array.from({ length: size }, (_, i) => ({ name: `c${i}`, children: [] })) };
  // mcp-migrate: confirmEach() → confirmEach() is a cycle of helpers: not inlined (a recursive helper is never unrolled), so its request is not migrated; break the cycle, or return inputRequired from the handler by hand
  const kept = await confirmEach(tree);
  return { content: [{ type: 'text', text: kept.join(', ') }] };
});
