import { McpServer, ResourceTemplate, inputRequired } from '@modelcontextprotocol/server';
import { z } from 'zod';
import {
  elicitResult,
  resumeCall,
  rootsResult,
  suspendCall,
  unknownPhase,
  verifyRequestState,
} from './mcp-migrate-state.js';

export const server = new McpServer({ name: 'fixture', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });

server.registerPrompt('standup', { argsSchema: z.object({ team: z.string() }) }, async ({ team }, ctx) => {
  // mcp-migrate: input_required phases (MCP 2026-07-28); state sealed by ./mcp-migrate-state.js
  const resumed = resumeCall(ctx, 'standup', { team });
  if (resumed.phase === 0) {
    return inputRequired({
      inputRequests: {
        mood: inputRequired.elicit({
          message: `How is ${team} doing?`,
          requestedSchema: { type: 'object', properties: { mood: { type: 'string', enum: ['good', 'bad'] } }, required: ['mood'] },
        }),
      },
      requestState: await suspendCall(ctx, 'standup', { team }, 1, {}),
    });
  }
  if (resumed.phase === 1) {
    const mood = elicitResult(ctx, 'mood', { type: 'object', properties: { mood: { type: 'string', enum: ['good', 'bad'] } }, required: ['mood'] });
    return {
      messages: [{ role: 'user', content: { type: 'text', text: `Standup for ${team}: ${mood.action === 'accept' ? String(mood.content?.mood) : 'unknown'}` } }],
    };
  }
  throw unknownPhase('standup', resumed);
});

server.registerResource('notes', new ResourceTemplate('notes://{id}', { list: undefined }), { mimeType: 'text/plain' }, async (uri, { id }, ctx) => {
  // mcp-migrate: input_required phases (MCP 2026-07-28); state sealed by ./mcp-migrate-state.js
  const resumed = resumeCall(ctx, 'notes', uri.href);
  if (resumed.phase === 0) {
    return inputRequired({
      inputRequests: {
        roots: inputRequired.listRoots(),
      },
      requestState: await suspendCall(ctx, 'notes', uri.href, 1, {}),
    });
  }
  if (resumed.phase === 1) {
    const { roots } = rootsResult(ctx, 'roots');
    return { contents: [{ uri: uri.href, text: `note ${String(id)} in ${roots.length} roots` }] };
  }
  throw unknownPhase('notes', resumed);
});
