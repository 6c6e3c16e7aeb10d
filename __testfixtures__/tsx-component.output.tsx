import { McpServer, inputRequired, type ElicitRequestFormParams } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { elicitResult, resumeCall, verifyRequestState } from './mcp-migrate-state.js';

// A server living beside JSX code: the transform must parse TSX.
const Badge = (props: { label: string }) => <span className="badge">{props.label}</span>;
void Badge;

export const server = new McpServer({ name: 'fixture', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });

const styleSchema: ElicitRequestFormParams['requestedSchema'] = { type: 'object', properties: { style: { type: 'string', enum: ['bold', 'plain'] } }, required: ['style'] };

server.registerTool('label', { inputSchema: z.object({ text: z.string() }) }, async ({ text }, ctx) => {
  // mcp-migrate: input_required phases (MCP 2026-07-28); state sealed by ./mcp-migrate-state.js
  type LabelStep = { step: 'awaiting-style'; upper: string };
  const call = resumeCall<LabelStep>(ctx, 'label', { text });
  return call.run(async resumed => {
    if (resumed.step === 'start') {
      const upper = text.toUpperCase() as string;
      return call.suspend({ step: 'awaiting-style', upper }, {
        style: inputRequired.elicit({
          message: `Style for ${upper}?`,
          requestedSchema: styleSchema,
        }),
      });
    }
    if (resumed.step === 'awaiting-style') {
      const upper = resumed.upper;
      const style = elicitResult(ctx, 'style', styleSchema);
      return { content: [{ type: 'text', text: style.action === 'accept' ? `${upper}:${String(style.content?.style)}` : upper }] };
    }
    throw call.unknownStep(resumed);
  });
});
