import { McpServer, inputRequired, type ElicitRequestFormParams } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { elicitResult, resumeCall, verifyRequestState } from './mcp-migrate-state.js';

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

const describeSchema: ElicitRequestFormParams['requestedSchema'] = { type: 'object', properties: { detail: { type: 'string' } } };

// A const narrowed before the await keeps its narrowed type after it; a local read only in a shorthand
// property ({ full }) is carried like any other.
server.registerTool('describe', { inputSchema: z.object({ name: z.string() }) }, async ({ name }, ctx) => {
  // mcp-migrate: input_required phases (MCP 2026-07-28); state sealed by ./mcp-migrate-state.js
  type DescribeStep = { step: 'awaiting-answer'; full: boolean; node: TreeNode };
  const call = resumeCall<DescribeStep>(ctx, 'describe', { name });
  return call.run(async resumed => {
    if (resumed.step === 'start') {
      const node: TreeNode | undefined = find(tree, name);
      if (!node) return { content: [{ type: 'text', text: `no ${name}` }] };
      const full = node.children.length > 0;
      return call.suspend({ step: 'awaiting-answer', full, node }, {
        answer: inputRequired.elicit({
          message: `Describe ${node.name}?`,
          requestedSchema: describeSchema,
        }),
      });
    }
    if (resumed.step === 'awaiting-answer') {
      const full = resumed.full;
      const node = resumed.node;
      const answer = elicitResult(ctx, 'answer', describeSchema);
      const summary = { ok: answer.action === 'accept', full };
      return { content: [{ type: 'text', text: `${node.name} has ${node.children.length} children: ${JSON.stringify(summary)}` }] };
    }
    throw call.unknownStep(resumed);
  });
});
