import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { ask, resumable, verifyRequestState } from './mcp-migrate-state.js';

interface TreeNode {
  name: string;
  children: TreeNode[];
}

const tree: TreeNode = { name: 'root', children: [{ name: 'leaf', children: [] }] };

function find(node: TreeNode, name: string): TreeNode | undefined {
  if (node.name === name) return node;
  for (const child of node.children) {
    const found = find(child, name);
    if (found) return found;
  }
  return undefined;
}

const server = new McpServer({ name: 'narrowed-locals', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });

// A const narrowed before the question keeps its narrowed type after it, and a local read only in a shorthand
// property ({ full }) is read there: the handler's code is unchanged, so both are computed again on each round.
resumable(server).registerTool('describe', { inputSchema: z.object({ name: z.string() }) }, async ({ name }) => {
  const node: TreeNode | undefined = find(tree, name);
  if (!node) return { content: [{ type: 'text', text: `no ${name}` }] };
  const full = node.children.length > 0;
  const answer = await ask(server.server, 'answer').elicitInput({
    message: `Describe ${node.name}?`,
    requestedSchema: { type: 'object', properties: { detail: { type: 'string' } } },
  });
  const summary = { ok: answer.action === 'accept', full };
  return { content: [{ type: 'text', text: `${node.name} has ${node.children.length} children: ${JSON.stringify(summary)}` }] };
});
