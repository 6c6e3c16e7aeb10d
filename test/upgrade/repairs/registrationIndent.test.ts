/**
 * src/upgrade/repairs/registrationIndent.ts: the official codemod's converted registrations given back the file's
 * indentation.
 */
import { describe, expect, it } from 'vitest';
import { upgraded } from '../support.js';

describe("the codemod's converted registrations keep the file's indentation", () => {
  const legacy = (body: string) => `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
export function register(server: McpServer) {
  server.tool('t', 'Does t', { q: z.string() }, async ({ q }) => {
${body}
  });
}
`;

  it('gives the callback its lines back where the codemod indented them again', () => {
    const { text } = upgraded(legacy("    const n = q.length;\n    return { content: [{ type: 'text', text: String(n) }] };"));
    expect(text).toContain(
      "  server.registerTool('t', { description: 'Does t', inputSchema: z.object({ q: z.string() }) }, async ({ q }) => {\n    const n = q.length;\n    return { content: [{ type: 'text', text: String(n) }] };\n  });\n",
    );
  });

  it('leaves a callback holding a template literal over several lines as the codemod wrote it (those lines are the string)', () => {
    const { text } = upgraded(legacy("    const doc = `line one\nline two`;\n    return { content: [{ type: 'text', text: doc + q }] };"));
    expect(text).toContain('line one\nline two`');
    expect(text).not.toContain('=> {\n    const doc');
  });
});
