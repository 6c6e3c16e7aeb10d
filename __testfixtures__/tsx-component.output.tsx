import {
  McpServer,
  inputRequired,
  type ElicitRequestFormParams,
} from '@modelcontextprotocol/server';
import { z } from 'zod';
import { elicitResult, resumeCall, verifyRequestState } from './mcp-migrate-state.js';

// A server living beside JSX code: the transform must parse TSX.
const Badge = (props: { label: string }) => <span className="badge">{props.label}</span>;
void Badge;

export const server = new McpServer({ name: 'fixture', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });

const styleSchema: ElicitRequestFormParams['requestedSchema'] = { type: 'object', properties: { style: { type: 'string', enum: ['bold', 'plain'] } }, required: ['style'] };

server.registerTool('label', { inputSchema: z.object({ text: z.string() }) }, async ({ text }, ctx) => {
  // mcp-migrate: input_required phases (MCP 2026-07-28); state sealed by ./mcp-migrate-state.js
  const call = resumeCall(ctx, 'label', { text });
  return call.run(async resumed => {
    if (resumed.phase === 0) {
      const upper = text.toUpperCase() as string;
      return call.suspend(1, { upper }, {
        style: inputRequired.elicit({
          message: `Style for ${upper}?`,
          requestedSchema: styleSchema,
        }),
      });
    }
    if (resumed.phase === 1) {
      const upper: string = resumed.locals.upper;
      const style = elicitResult(ctx, 'style', styleSchema);
      return { content: [{ type: 'text', text: style.action === 'accept' ? `${upper}:${String(style.content?.style)}` : upper }] };
    }
    throw call.unknownPhase(resumed);
  });
});
