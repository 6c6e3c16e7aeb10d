import { McpServer, ResourceTemplate, inputRequired, type ElicitRequestFormParams } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { elicitResult, resumeCall, rootsResult, verifyRequestState } from './mcp-migrate-state.js';

export const server = new McpServer({ name: 'fixture', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });

const moodSchema: ElicitRequestFormParams['requestedSchema'] = { type: 'object', properties: { mood: { type: 'string', enum: ['good', 'bad'] } }, required: ['mood'] };

server.registerPrompt('standup', { argsSchema: z.object({ team: z.string() }) }, async ({ team }, ctx) => {
  // mcp-migrate: input_required phases (MCP 2026-07-28); state sealed by ./mcp-migrate-state.js
  type StandupStep = { step: 'awaiting-mood' };
  const call = resumeCall<StandupStep>(ctx, 'standup', { team });
  return call.run(async resumed => {
    if (resumed.step === 'start') {
      return call.suspend({ step: 'awaiting-mood' }, {
        mood: inputRequired.elicit({
          message: `How is ${team} doing?`,
          requestedSchema: moodSchema,
        }),
      });
    }
    if (resumed.step === 'awaiting-mood') {
      const mood = elicitResult(ctx, 'mood', moodSchema);
      return {
        messages: [{ role: 'user', content: { type: 'text', text: `Standup for ${team}: ${mood.action === 'accept' ? String(mood.content?.mood) : 'unknown'}` } }],
      };
    }
    throw call.unknownStep(resumed);
  });
});

server.registerResource('notes', new ResourceTemplate('notes://{id}', { list: undefined }), { mimeType: 'text/plain' }, async (uri, { id }, ctx) => {
  type NotesStep = { step: 'awaiting-roots' };
  const call = resumeCall<NotesStep>(ctx, 'notes', uri.href);
  return call.run(async resumed => {
    if (resumed.step === 'start') {
      return call.suspend({ step: 'awaiting-roots' }, {
        roots: inputRequired.listRoots(),
      });
    }
    if (resumed.step === 'awaiting-roots') {
      const { roots } = rootsResult(ctx, 'roots');
      return { contents: [{ uri: uri.href, text: `note ${String(id)} in ${roots.length} roots` }] };
    }
    throw call.unknownStep(resumed);
  });
});
