/**
 * src/analysis/units/logMessages.ts: a log message sent from a handler's own body is sent with the request's
 * own context (`ctx.mcpReq.log(...)`), the context parameter added where the handler has none.
 */
import { describe, expect, it } from 'vitest';
import { analysed } from './support.js';

const HEAD = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
const server = new McpServer({ name: 's', version: '1.0.0' }, { capabilities: { logging: {} } });
`;

describe('log messages', () => {
  it("sends a handler's log message with its own context, named as the upgrade named it", () => {
    const a = analysed({
      'server.ts': `${HEAD}server.registerTool('work', { inputSchema: { job: z.string() } }, async ({ job }, extra) => {
  await server.sendLoggingMessage({ level: 'info', data: \`starting \${job}\` });
  return { content: [{ type: 'text', text: job }] };
});
`,
    });
    expect(a.plan()?.logs).toEqual([{ call: "server.sendLoggingMessage({ level: 'info', data: `starting ${job}` })", context: 'ctx' }]);
    expect(a.acted).toEqual(['log-messages server.ts']);
  });

  it('adds the context to a handler that takes none', () => {
    const a = analysed({
      'server.ts': `${HEAD}server.registerTool('work', {}, async () => {
  await server.sendLoggingMessage({ level: 'debug', data: 'working' });
  return { content: [] };
});
`,
    });
    expect(a.plan()?.logs).toEqual([
      { call: "server.sendLoggingMessage({ level: 'debug', data: 'working' })", context: 'ctx', addContextTo: 'async () => { …' },
    ]);
  });

  it('leaves a log message sent where no request runs', () => {
    const a = analysed({
      'server.ts': `${HEAD}setInterval(() => void server.sendLoggingMessage({ level: 'info', data: 'tick' }), 1000);\n`,
    });
    expect(a.plan()?.logs).toBeUndefined();
  });
});
