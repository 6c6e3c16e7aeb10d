// Recursive helpers, beside a handler that asks and inside one: only the question is edited. A tree walk
// that asks nothing stays as it is; a recursive walk that asks at each node asks through the requestState
// module at each level, and replays its answers in order on each round.
import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { ask, resumable, verifyRequestState } from './mcp-migrate-state.js';

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

resumable(server).registerTool('tree', { inputSchema: z.object({ size: z.number() }) }, async ({ size }) => {
  const tree: Node = { name: 'root', children: Array.from({ length: size }, (_, i) => ({ name: `c${i}`, children: [] })) };
  const count = countNodes(tree);
  const even = isEven(count);
  const levels = await depth(tree);
  const answer = await ask(server.server, 'answer').elicitInput({
    message: `${count} nodes (${even ? 'even' : 'odd'}), ${levels} levels: keep them?`,
    requestedSchema: { type: 'object', properties: { keep: { type: 'boolean' } } },
  });
  return { content: [{ type: 'text', text: answer.action === 'accept' && answer.content?.keep === true ? 'kept' : 'dropped' }] };
});

/** A walk that asks at every node: the question is asked where it is written, one round per node on a 2026-07-28 client. */
async function confirmEach(node: Node): Promise<string[]> {
  const kept: string[] = [];
  for (const child of node.children) kept.push(...(await confirmEach(child)));
  return (await keep(node.name)) ? [node.name, ...kept] : kept;
}

async function keep(name: string): Promise<boolean> {
  const answer = await ask(server.server, 'answer').elicitInput({ message: `Keep ${name}?`, requestedSchema: { type: 'object', properties: {} } });
  return answer.action === 'accept';
}

resumable(server).registerTool('prune', { inputSchema: z.object({ size: z.number() }) }, async ({ size }) => {
  const tree: Node = { name: 'root', children: Array.from({ length: size }, (_, i) => ({ name: `c${i}`, children: [] })) };
  const kept = await confirmEach(tree);
  return { content: [{ type: 'text', text: kept.join(', ') }] };
});
