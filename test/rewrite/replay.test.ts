/**
 * src/rewrite/replay.ts: the edits that make a handler resumable by replay, each a node wrapped where it stands
 * in a call of the requestState module (the registration's receiver, a request's target, journaled work, a
 * capability read), a catch block around a question guarded, and the names imported; nothing else of the
 * handler is touched.
 */
import { describe, expect, it } from 'vitest';
import { planOf, range, rewritten } from './support.js';

const SOURCE = `import { McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';
import { api } from './api.js';

const server = new McpServer({ name: 's', version: '1.0.0' });

server.registerTool('post', { inputSchema: z.object({ title: z.string() }) }, async ({ title }) => {
  const draft = await api.createDraft(title);
  try {
    const answer = await server.server.elicitInput({ message: \`Publish \${draft.id}?\`, requestedSchema: { type: 'object', properties: {} } });
    if (answer.action === 'accept') await api.publish(draft.id);
  } catch (error) {
    console.error(error);
  }
  const caps = server.server.getClientCapabilities();
  return { content: [{ type: 'text', text: \`\${draft.id} \${Boolean(caps?.sampling)}\` }] };
});
`;

describe('replay', () => {
  it("wraps each planned node where it stands and imports what it wraps them in, leaving the handler's code as written", () => {
    const { text, acted } = rewritten(
      SOURCE,
      planOf({
        registrations: [{ receiver: range(SOURCE, 'server', 'server.registerTool') }],
        asks: [{ target: range(SOURCE, 'server.server'), key: 'answer' }],
        journaled: [{ range: range(SOURCE, 'api.createDraft(title)') }],
        guards: [{ block: range(SOURCE, '{\n    console.error(error);\n  }') }],
        capabilityReads: [
          {
            call: range(SOURCE, 'server.server.getClientCapabilities()'),
            server: range(SOURCE, 'server.server', 'server.server.getClientCapabilities()'),
          },
        ],
      }),
    );
    expect(acted).toEqual(['replay']);
    expect(text).toBe(`import { McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';
import { api } from './api.js';
import { ask, clientCapabilities, journaled, resumable, rethrowIfSuspended } from './mcp-migrate-state.js';

const server = new McpServer({ name: 's', version: '1.0.0' });

resumable(server).registerTool('post', { inputSchema: z.object({ title: z.string() }) }, async ({ title }) => {
  const draft = await journaled(() => api.createDraft(title));
  try {
    const answer = await ask(server.server, 'answer').elicitInput({ message: \`Publish \${draft.id}?\`, requestedSchema: { type: 'object', properties: {} } });
    if (answer.action === 'accept') await api.publish(draft.id);
  } catch (error) {
    rethrowIfSuspended();
    console.error(error);
  }
  const caps = clientCapabilities(server.server);
  return { content: [{ type: 'text', text: \`\${draft.id} \${Boolean(caps?.sampling)}\` }] };
});
`);
  });

  it('writes journaled work that awaits inside as an async arrow, and work whose value is not used as a block', () => {
    const source = `async function run(api: { log(): Promise<void>; count(): number }) {
  await Promise.all([api.log(), api.log()]);
  api.count();
  await api.log();
}
`;
    const { text } = rewritten(
      source,
      planOf({
        journaled: [
          { range: range(source, 'Promise.all([api.log(), api.log()])') },
          { range: range(source, 'api.count()'), discarded: 'value' },
          { range: range(source, 'api.log()', 'await api.log();'), discarded: 'settled' },
        ],
      }),
    );
    expect(text).toContain('await journaled(() => Promise.all([api.log(), api.log()]));');
    expect(text).toContain('journaled(() => {\n    api.count();\n  });');
    expect(text).toContain('await journaled(async () => {\n    await api.log();\n  });');
  });

  it("asks a context's sendRequest through its mcpReq, renamed send", () => {
    const source = `export async function roots(ctx: any) {
  return ctx.sendRequest({ method: 'roots/list' }, undefined);
}
`;
    const { text } = rewritten(
      source,
      planOf({ asks: [{ target: range(source, 'ctx', 'ctx.sendRequest'), sendRequest: range(source, 'sendRequest') }] }),
    );
    expect(text).toContain("return ask(ctx.mcpReq).send({ method: 'roots/list' }, undefined);");
  });
});
