/**
 * src/rewrite/logging.ts: `server.sendLoggingMessage({ level, data, logger })` in a handler becomes the request's
 * own `ctx.mcpReq.log(level, data, logger)`, the context added as the handler's last parameter where it has none.
 */
import { describe, expect, it } from 'vitest';
import { planOf, range, rewritten } from './support.js';

describe('log messages', () => {
  it("sends the message with the handler's context, its fields as arguments", () => {
    const source = `server.registerTool('work', {}, async ctx => {
  await server.sendLoggingMessage({ level: 'info', data: 'working', logger: 'jobs' });
  return { content: [] };
});
`;
    const { text, acted } = rewritten(
      source,
      planOf({
        logs: [{ call: range(source, "server.sendLoggingMessage({ level: 'info', data: 'working', logger: 'jobs' })"), context: 'ctx' }],
      }),
    );
    expect(acted).toEqual(['logging']);
    expect(text).toBe(`server.registerTool('work', {}, async ctx => {
  await ctx.mcpReq.log('info', 'working', 'jobs');
  return { content: [] };
});
`);
  });

  it('adds the context to a handler that takes none', () => {
    const source = `server.registerTool('work', {}, async () => {
  await server.sendLoggingMessage({ level: 'debug', data: { step: 1 } });
  return { content: [] };
});
`;
    const handler = source.slice(source.indexOf('async () =>'), source.lastIndexOf('}') + 1);
    const { text } = rewritten(
      source,
      planOf({
        logs: [
          {
            call: range(source, "server.sendLoggingMessage({ level: 'debug', data: { step: 1 } })"),
            context: 'ctx',
            addContextTo: range(source, handler),
          },
        ],
      }),
    );
    expect(text).toBe(`server.registerTool('work', {}, async ctx => {
  await ctx.mcpReq.log('debug', { step: 1 });
  return { content: [] };
});
`);
  });

  it('reads the fields of params held in a name', () => {
    const source = `server.registerTool('work', {}, async ctx => {
  const params = { level: 'info' as const, data: 'x' };
  await server.sendLoggingMessage(params);
  return { content: [] };
});
`;
    const { text } = rewritten(
      source,
      planOf({ logs: [{ call: range(source, 'server.sendLoggingMessage(params)'), context: 'ctx', members: ['level', 'data'] }] }),
    );
    expect(text).toContain('await ctx.mcpReq.log(params.level, params.data);');
  });
});
