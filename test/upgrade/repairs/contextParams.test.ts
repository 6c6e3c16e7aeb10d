/**
 * src/upgrade/repairs/contextParams.ts: handler contexts the official codemod leaves on 1.x members (named otherwise
 * than extra, destructured, or wrapped by a project function before registration), moved where SDK 2.x keeps them.
 */
import { describe, expect, it } from 'vitest';
import { upgraded } from '../support.js';

describe('handler contexts the official codemod leaves on 1.x members', () => {
  const upgradedTool = (callback: string) =>
    upgraded(`import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
const server = new McpServer({ name: 's', version: '1' });
server.registerTool('t', {}, ${callback});
`);

  it('moves the members of a context named otherwise than extra, or the only parameter', () => {
    const { text, notes } = upgradedTool(
      'async (context) => [context.signal, context.sendRequest, context.authInfo?.clientId, context.sessionId]',
    );
    expect(text).toContain(
      'async (context) => [context.mcpReq.signal, context.mcpReq.send, context.http?.authInfo?.clientId, context.sessionId]',
    );
    expect(notes).toContainEqual(expect.stringMatching(/^info: the handler context "context" read with SDK 1\.x members/));
  });

  it("names a destructured context and drops the official codemod's finding about it, now untrue", () => {
    const { text, notes } = upgraded(`import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
const server = new McpServer({ name: 's', version: '1' });
server.registerTool('t', { inputSchema: {} }, async (args, { signal, sendRequest: send }) => ({ s: signal.aborted, send, args }));
`);
    expect(text).toContain('async (args, ctx) => ({ s: ctx.mcpReq.signal.aborted, send: ctx.mcpReq.send, args })');
    expect(text).not.toContain('@mcp-codemod-error');
    expect(notes.some(n => n.includes('Destructuring of context parameter'))).toBe(false);
  });

  it('expands `const { sendRequest } = extra` in the body into member reads', () => {
    const { text } = upgradedTool(
      'async extra => { const { sendRequest, requestId } = extra; return sendRequest({ method: "ping" }, requestId); }',
    );
    expect(text).toContain('async extra => { return extra.mcpReq.send({ method: "ping" }, extra.mcpReq.id); }');
  });

  it("leaves a destructuring with a rest element or a default, and the codemod's finding with it", () => {
    const { text, notes } = upgraded(`import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
const server = new McpServer({ name: 's', version: '1' });
server.registerTool('t', { inputSchema: {} }, async (args, { signal, ...rest }) => ({ signal, rest, args }));
`);
    expect(text).toContain('async (args, { signal, ...rest })');
    expect(text).toContain('@mcp-codemod-error Destructuring of context parameter');
    expect(notes.some(n => n.includes('Destructuring of context parameter'))).toBe(true);
  });
});

describe('the context of a handler a project function wraps before it is registered', () => {
  it('is not moved (the wrapper decides what it is) but marked where it reads members SDK 2.x moved', () => {
    // withRetry() calls the callback again when it throws: no pass-through.
    const { text, notes } = upgraded(
      `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
const withRetry = (cb) => async (args, extra) => { try { return await cb(args, extra); } catch (e) { return await cb(args, extra); } };
const server = new McpServer({ name: 's', version: '1' });
server.registerTool('t', { description: 'T', inputSchema: {} }, withRetry(async (args, extra) => {
  if (extra.signal.aborted) return { content: [] };
  return { content: [{ type: 'text', text: String(extra.sessionId) }] };
}));
server.registerTool('u', { description: 'U', inputSchema: {} }, withRetry(async (args, extra) => ({ content: [{ type: 'text', text: typeof extra } ] })));
`,
      '/project/src/server.js',
    );
    expect(text).toContain('if (extra.signal.aborted)');
    expect(text).toMatch(
      /\/\* @mcp-codemod-error a handler wrapped by withRetry\(\) reads extra\.signal, where SDK 1\.x's context had them; SDK 2\.x moved them \(extra\.signal → extra\.mcpReq\.signal\)/,
    );
    // The codemod's own import of z, in the file's quotes.
    expect(text).toMatch(/^import \{ z \} from 'zod';$/m);
    expect(notes.filter(n => /a handler wrapped by withRetry\(\)/.test(n))).toHaveLength(1);
  });

  it("is moved as a handler's when the wrapper is a pass-through of the file (it hands the context on unchanged)", () => {
    const { text, notes } = upgraded(
      `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
const withErrors = (cb) => async (...args) => { try { return await cb(...args); } catch (e) { return { content: [], isError: true }; } };
const server = new McpServer({ name: 's', version: '1' });
server.registerTool('t', { description: 'T', inputSchema: {} }, withErrors(async (args, extra) => {
  if (extra.signal.aborted) return { content: [] };
  return { content: [] };
}));
`,
      '/project/src/server.js',
    );
    expect(text).toContain('if (extra.mcpReq.signal.aborted)');
    expect(text).not.toContain('@mcp-codemod-error');
    expect(notes.filter(n => /a handler wrapped by withErrors\(\)/.test(n))).toHaveLength(0);
  });
});
