/**
 * src/upgrade/repairs/rawShapes.ts: raw zod shapes the official codemod cannot see are shapes (a field typed
 * ZodRawShape, a constant), wrapped with z.object().
 */
import { describe, expect, it } from 'vitest';
import { upgraded } from '../support.js';

describe('raw zod shapes the official codemod cannot see are shapes', () => {
  it('wraps a shape held in a field typed ZodRawShape, or in a constant, in z.object(), importing z beside the types', () => {
    const { text, notes } = upgraded(`import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ZodRawShape } from 'zod';
import { shared } from './shared.js';
abstract class BaseTool {
  abstract readonly schema: ZodRawShape;
  constructor(private readonly server: McpServer) {}
  register(): void {
    this.server.registerTool('t', { inputSchema: this.schema }, async () => ({ content: [] }));
  }
}
const inputSchema = { q: 1 };
export function more(server: McpServer) {
  server.registerTool('u', { inputSchema }, async () => ({ content: [] }));
  server.registerTool('v', { inputSchema: shared }, async () => ({ content: [] }));
}
`);
    expect(text).toContain("import { z, type ZodRawShape } from 'zod';");
    expect(text).toContain("this.server.registerTool('t', { inputSchema: z.object(this.schema) }");
    expect(text).toContain("server.registerTool('u', { inputSchema: z.object(inputSchema) }");
    // declared elsewhere: it may already be a schema object, so the codemod's finding stays
    expect(text).toContain("server.registerTool('v', { inputSchema: shared }");
    expect(text.match(/@mcp-codemod-error/g)).toHaveLength(1);
    expect(notes).toContainEqual(
      expect.stringMatching(/^info: inputSchema \(this\.schema\) is a raw zod shape: wrapped with z\.object\(\)/),
    );
  });
});
