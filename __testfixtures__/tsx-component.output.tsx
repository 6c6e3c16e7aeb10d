import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { ask, resumable, verifyRequestState } from './mcp-migrate-state.js';

// A server living beside JSX code: the transform must parse TSX.
const Badge = (props: { label: string }) => <span className="badge">{props.label}</span>;
void Badge;

export const server = new McpServer({ name: 'fixture', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });

resumable(server).registerTool('label', { inputSchema: z.object({ text: z.string() }) }, async ({ text }) => {
  const upper = text.toUpperCase() as string;
  const style = await ask(server.server, 'style').elicitInput({
    message: `Style for ${upper}?`,
    requestedSchema: { type: 'object', properties: { style: { type: 'string', enum: ['bold', 'plain'] } }, required: ['style'] },
  });
  return { content: [{ type: 'text', text: style.action === 'accept' ? `${upper}:${String(style.content?.style)}` : upper }] };
});
