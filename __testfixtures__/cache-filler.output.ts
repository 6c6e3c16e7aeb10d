import {
  McpServer,
  type ElicitResult,
  type ListRootsResult,
  inputRequired,
  type ElicitRequestFormParams,
} from '@modelcontextprotocol/server';
import { z } from 'zod';
import { elicitResult, resumeCall, rootsResult, verifyRequestState } from './mcp-migrate-state.js';

export const server = new McpServer({ name: 'fixture', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });

// Cache fillers: asked once, remembered for the next calls. Each tool asks only while the cache is empty.
let units: 'metric' | 'imperial' | undefined;
let rootUris: string[] | undefined;
/** The cached `units`, undefined until it is filled: what a tool reads before it asks the client. */
function cachedUnits(): 'metric' | 'imperial' | undefined {
  return units;
}

/** Fills the cached `units` from the client's answer to its elicitation request. */
function fillUnits(answer: ElicitResult): 'metric' | 'imperial' {
  units = answer.action === 'accept' && answer.content?.units === 'imperial' ? 'imperial' : 'metric';
  return units;
}

/** The cached `rootUris`, undefined until it is filled: what a tool reads before it asks the client. */
function cachedRootUris(): string[] | undefined {
  return rootUris;
}

/** Fills the cached `rootUris` from the client's answer to its roots request. */
function fillRootUris({ roots }: ListRootsResult): string[] {
  rootUris = roots.map(root => root.uri);
  return rootUris;
}

const preferredSchema: ElicitRequestFormParams['requestedSchema'] = { type: 'object', properties: { units: { type: 'string', enum: ['metric', 'imperial'] } }, required: ['units'] };

server.registerTool('distance', { description: 'A distance in the units the user prefers', inputSchema: z.object({ km: z.number() }) }, async ({ km }, ctx) => {
  // mcp-migrate: input_required phases (MCP 2026-07-28); state sealed by ./mcp-migrate-state.js
  type DistanceStep = { step: 'awaiting-preferred' };
  const call = resumeCall<DistanceStep>(ctx, 'distance', { km });
  return call.run(async resumed => {
    if (resumed.step === 'start') {
      let preferred: 'metric' | 'imperial' | undefined = cachedUnits();
      if (preferred === undefined) {
        return call.suspend({ step: 'awaiting-preferred' }, {
          preferred: inputRequired.elicit({
            message: 'Metric or imperial?',
            requestedSchema: preferredSchema,
          }),
        });
      }
      const text = preferred === 'imperial' ? `${(km * 0.621371).toFixed(1)} mi` : `${km} km`;
      return { content: [{ type: 'text', text }] };
    }
    if (resumed.step === 'awaiting-preferred') {
      let preferred: 'metric' | 'imperial' | undefined;
      preferred = fillUnits(elicitResult(ctx, 'preferred', preferredSchema));
      const text = preferred === 'imperial' ? `${(km * 0.621371).toFixed(1)} mi` : `${km} km`;
      return { content: [{ type: 'text', text }] };
    }
    throw call.unknownStep(resumed);
  });
});

server.registerTool('root_count', { description: 'How many roots the client exposes' }, async ctx => {
  type RootCountStep = { step: 'awaiting-uris' };
  const call = resumeCall<RootCountStep>(ctx, 'root_count', undefined);
  return call.run(async resumed => {
    if (resumed.step === 'start') {
      let uris: string[] | undefined = cachedRootUris();
      if (!uris) {
        return call.suspend({ step: 'awaiting-uris' }, {
          uris: inputRequired.listRoots(),
        });
      }
      return { content: [{ type: 'text', text: `${uris.length} roots` }] };
    }
    if (resumed.step === 'awaiting-uris') {
      let uris: string[] | undefined;
      uris = fillRootUris(rootsResult(ctx, 'uris'));
      return { content: [{ type: 'text', text: `${uris.length} roots` }] };
    }
    throw call.unknownStep(resumed);
  });
});

server.registerTool('first_root', { description: 'The first root the client exposes' }, async ctx => {
  type FirstRootStep = { step: 'awaiting-uris' };
  const call = resumeCall<FirstRootStep>(ctx, 'first_root', undefined);
  return call.run(async resumed => {
    if (resumed.step === 'start') {
      let uris: string[] | undefined = cachedRootUris();
      if (!uris) {
        return call.suspend({ step: 'awaiting-uris' }, {
          uris: inputRequired.listRoots(),
        });
      }
      return { content: [{ type: 'text', text: uris[0] ?? '(none)' }] };
    }
    if (resumed.step === 'awaiting-uris') {
      let uris: string[] | undefined;
      uris = fillRootUris(rootsResult(ctx, 'uris'));
      return { content: [{ type: 'text', text: uris[0] ?? '(none)' }] };
    }
    throw call.unknownStep(resumed);
  });
});
