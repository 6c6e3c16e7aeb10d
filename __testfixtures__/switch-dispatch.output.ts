import {
  Server,
  type ListToolsResult,
  inputRequired,
  type ElicitRequestFormParams,
} from '@modelcontextprotocol/server';
import { elicitResult, resumeCall, rootsResult, verifyRequestState } from './mcp-migrate-state.js';

export const server = new Server({ name: 'fixture', version: '1.0.0' }, {
  capabilities: { tools: {} },
  requestState: { verify: verifyRequestState },
});

server.setRequestHandler('tools/list', async (): Promise<ListToolsResult> => ({
  tools: [
    { name: 'echo', description: 'Echoes', inputSchema: { type: 'object', properties: { text: { type: 'string' }, what: { type: 'string' } } } },
    { name: 'confirm', description: 'Asks for confirmation', inputSchema: { type: 'object', properties: { text: { type: 'string' }, what: { type: 'string' } } } },
    { name: 'roots', description: 'Counts roots', inputSchema: { type: 'object', properties: { text: { type: 'string' }, what: { type: 'string' } } } },
  ],
}));

const okSchema: ElicitRequestFormParams['requestedSchema'] = { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] };

server.setRequestHandler('tools/call', async (request, ctx) => {
  // mcp-migrate: input_required phases (MCP 2026-07-28); state sealed by ./mcp-migrate-state.js
  type Step =
    | { step: 'awaiting-answer'; text: string; what: string }
    | { step: 'awaiting-roots'; text: string };
  const call = resumeCall<Step>(ctx, request.params.name, request.params.arguments);
  return call.run(async resumed => {
    if (resumed.step === 'start') {
      const args = request.params.arguments ?? {};
      let text = '';
      switch (request.params.name) {
      case 'echo':
        text = String(args.text ?? '');
        break;
      case 'confirm':
        {
          const what = String(args.what ?? 'it');
          return call.suspend({ step: 'awaiting-answer', text, what }, {
            answer: inputRequired.elicit({
              message: `Confirm ${what}?`,
              requestedSchema: okSchema,
            }),
          });
        }
      case 'roots':
        {
          return call.suspend({ step: 'awaiting-roots', text }, {
            roots: inputRequired.listRoots(),
          });
        }
      default:
        throw new Error(`unknown tool ${request.params.name}`);
      }
      return { content: [{ type: 'text', text: `[${request.params.name}] ${text}` }] };
    }
    if (resumed.step === 'awaiting-answer') {
      let text = resumed.text;
      mcpSwitch: {
        {
          const what = resumed.what;
          const answer = elicitResult(ctx, 'answer', okSchema);
          if (answer.action !== 'accept') {
            text = `${what}: ${answer.action}`;
            break mcpSwitch;
          }
          text = `${what}: ${answer.content?.ok ? 'confirmed' : 'refused'}`;
          break mcpSwitch;
        }
      }
      return { content: [{ type: 'text', text: `[${request.params.name}] ${text}` }] };
    }
    if (resumed.step === 'awaiting-roots') {
      let text = resumed.text;
      mcpSwitch: {
        {
          const { roots } = rootsResult(ctx, 'roots');
          text = `${roots.length} roots`;
          break mcpSwitch;
        }
      }
      return { content: [{ type: 'text', text: `[${request.params.name}] ${text}` }] };
    }
    throw call.unknownStep(resumed);
  });
});
