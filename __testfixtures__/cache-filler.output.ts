import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { ask, resumable, verifyRequestState } from './mcp-migrate-state.js';

export const server = new McpServer({ name: 'fixture', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });

/** Runs one piece of work at a time, in the order asked. */
class Lock {
  private tail: Promise<unknown> = Promise.resolve();

  runExclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.tail.then(work, work);
    this.tail = run.catch(() => undefined);
    return run;
  }
}

// Cache fillers: asked once, remembered for the next calls. Each tool asks only while the cache is empty; the
// helpers ask where they are written, and the cache is filled on the round that has the answer.
let units: 'metric' | 'imperial' | undefined;
let rootUris: string[] | undefined;
const lock = new Lock();

async function getUnits(): Promise<'metric' | 'imperial'> {
  if (units !== undefined) return units;
  const answer = await ask(server.server, 'answer').elicitInput({
    message: 'Metric or imperial?',
    requestedSchema: { type: 'object', properties: { units: { type: 'string', enum: ['metric', 'imperial'] } }, required: ['units'] },
  });
  units = answer.action === 'accept' && answer.content?.units === 'imperial' ? 'imperial' : 'metric';
  return units;
}

async function loadRootUris(): Promise<string[]> {
  return lock.runExclusive(async () => {
    if (rootUris) return rootUris;
    const { roots } = await ask(server.server).listRoots();
    rootUris = roots.map(root => root.uri);
    return rootUris;
  });
}

resumable(server).registerTool('distance', { description: 'A distance in the units the user prefers', inputSchema: z.object({ km: z.number() }) }, async ({ km }) => {
  const preferred = await getUnits();
  const text = preferred === 'imperial' ? `${(km * 0.621371).toFixed(1)} mi` : `${km} km`;
  return { content: [{ type: 'text', text }] };
});

resumable(server).registerTool('root_count', { description: 'How many roots the client exposes' }, async () => {
  const uris = await loadRootUris();
  return { content: [{ type: 'text', text: `${uris.length} roots` }] };
});

resumable(server).registerTool('first_root', { description: 'The first root the client exposes' }, async () => {
  const uris = await loadRootUris();
  return { content: [{ type: 'text', text: uris[0] ?? '(none)' }] };
});
