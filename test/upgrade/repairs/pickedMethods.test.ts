/**
 * src/upgrade/repairs/pickedMethods.ts: types naming McpServer's 1.x tool(), prompt() and resource() (a Pick),
 * renamed to the methods now called.
 */
import { describe, expect, it } from 'vitest';
import { upgraded } from '../support.js';

describe("types naming McpServer's 1.x tool(), prompt() and resource()", () => {
  it('renames the keys of a Pick every call through which is now registered, and marks one still used, exported, or indexed', () => {
    const { text, notes } = upgraded(`import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
export function registerEcho(server: Pick<McpServer, 'tool'>): void {
  server.tool('echo', 'Echoes', { text: z.string() }, async ({ text }) => ({ content: [{ type: 'text', text }] }));
}
type Docs = Pick<McpServer, "resource" | 'prompt' | 'connect'>;
export function registerDocs(server: Docs): void {
  server.resource('readme', 'file:///readme', async uri => ({ contents: [{ uri: uri.href, text: 'hi' }] }));
  server.prompt('greet', () => ({ messages: [] }));
}
export type Registrar = Pick<McpServer, 'tool'>;
export function many(server: Pick<McpServer, 'tool'>, names: string[]) {
  for (const name of names) server.tool(name, async () => ({ content: [] }));
}
export type ToolArgs = Parameters<McpServer['tool']>;
`);
    expect(text).toContain("export function registerEcho(server: Pick<McpServer, 'registerTool'>): void {");
    expect(text).toContain(`type Docs = Pick<McpServer, "registerResource" | 'registerPrompt' | 'connect'>;`);
    expect(text).toContain("export type Registrar = Pick<McpServer, 'tool'>;");
    expect(text).toContain("export function many(server: Pick<McpServer, 'tool'>, names: string[]) {");
    expect(text.match(/@mcp-codemod-error [^\n]*names tool, which SDK 2\.x's McpServer does not have/g)).toHaveLength(2);
    expect(text).toContain("/* @mcp-codemod-error McpServer['tool'] is SDK 1.x's tool(), which SDK 2.x's McpServer does not have");
    expect(notes).toContainEqual(expect.stringMatching(/^info: Pick<McpServer, 'tool'> written as Pick<McpServer, 'registerTool'>/));
  });
});
