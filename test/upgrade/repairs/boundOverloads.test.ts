/**
 * src/upgrade/repairs/boundOverloads.ts: tool(), prompt() and resource() called through a bound reference, called on
 * their server again (or marked).
 */
import { describe, expect, it } from 'vitest';
import { upgraded } from '../support.js';

describe('tool(), prompt() and resource() called through a bound reference', () => {
  it('calls the method on its server again, so each call is registered like any other, and removes the reference', () => {
    const { text, notes } = upgraded(`import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
const server = new McpServer({ name: 's', version: '1' });
const tool = server.tool.bind(server);
const resource = server.resource.bind(server);
tool('echo', 'Echoes', { text: z.string() }, async ({ text }) => ({ content: [{ type: 'text', text }] }));
tool('ping', async () => ({ content: [] }));
resource('readme', 'file:///readme', async uri => ({ contents: [{ uri: uri.href, text: 'hi' }] }));
class Tools {
  constructor(private readonly server: McpServer) {}
  register() {
    const register = this.server.tool.bind(this.server);
    [1].forEach(() => register('inner', async () => ({ content: [] })));
  }
}
`);
    expect(text).not.toMatch(/\.bind\(/);
    expect(text).toContain(
      "server.registerTool('echo', { description: 'Echoes', inputSchema: z.object({ text: z.string() }) }, async ({ text }) =>",
    );
    expect(text).toContain("server.registerTool('ping', {}, async () => ({ content: [] }));");
    expect(text).toContain("server.registerResource('readme', 'file:///readme', {}, async uri =>");
    expect(text).toContain("[1].forEach(() => this.server.registerTool('inner', {}, async () => ({ content: [] })));");
    expect(text).not.toContain('@mcp-codemod-error');
    expect(notes).toContainEqual(
      expect.stringMatching(/^info: tool\(\.\.\.\), server\.tool bound to server, written as server\.tool\(\.\.\.\) \(2 calls/),
    );
  });

  it('leaves and marks a bound reference used otherwise than called, exported, or called where its server may differ', () => {
    const { text, notes } = upgraded(`import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
const server = new McpServer({ name: 's', version: '1' });
export const tool = server.tool.bind(server);
const prompt = server.prompt.bind(server);
[prompt].forEach(p => p('x', () => ({ messages: [] })));
class Tools {
  constructor(private readonly server: McpServer) {}
  register() {
    const register = this.server.tool.bind(this.server);
    const later = function (this: { server: McpServer }) { register('a', async () => ({ content: [] })); };
    return later;
  }
}
const cli = { prompt: (q: string) => q };
const ask = cli.prompt.bind(cli);
ask('q');
`);
    expect(text.match(/@mcp-codemod-error [^\n]*is a bound reference to SDK 1\.x's (tool|prompt)\(\)/g)).toHaveLength(3);
    expect(text).toContain('export const tool = server.tool.bind(server);');
    expect(text).toContain(
      "/* @mcp-codemod-error server.prompt.bind(server) is a bound reference to SDK 1.x's prompt(), which SDK 2.x's McpServer does not have: register each call of it with server.registerPrompt(",
    );
    // not a server: not ours
    expect(text).toContain('const ask = cli.prompt.bind(cli);');
    expect(notes.filter(n => /^warning: .*is a bound reference/.test(n))).toHaveLength(3);
  });
});
