import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

// A server living beside JSX code: the transform must parse TSX.
const Badge = (props: { label: string }) => <span className="badge">{props.label}</span>;
void Badge;

export const server = new McpServer({ name: 'fixture', version: '1.0.0' });

server.registerTool('label', { inputSchema: { text: z.string() } }, async ({ text }) => {
  const upper = text.toUpperCase() as string;
  const style = await server.server.elicitInput({
    message: `Style for ${upper}?`,
    requestedSchema: { type: 'object', properties: { style: { type: 'string', enum: ['bold', 'plain'] } }, required: ['style'] },
  });
  return { content: [{ type: 'text', text: style.action === 'accept' ? `${upper}:${String(style.content?.style)}` : upper }] };
});
