/**
 * src/upgrade/repairs/resultArrays.ts: a tools/call result array SDK 1.x's looser handler type let TypeScript evolve
 * from its pushes, typed CallToolResult['content'].
 */
import { describe, expect, it } from 'vitest';
import { SERVER, upgraded } from '../support.js';

describe('result arrays a tools/call handler fills by pushes', () => {
  it('types an empty result array of a low-level tools/call handler, and imports the type once', () => {
    const { text, notes } = upgraded(SERVER);
    expect(text).toContain(`const content: CallToolResult['content'] = [];`);
    // an array with its own annotation, or not the result's member, is left as written
    expect(text).toContain(`const kept: { type: 'text'; text: string }[] = [];`);
    expect(text.match(/\bCallToolResult\b/g)).toHaveLength(2);
    expect(text).toMatch(
      /import type \{[^}]*\bCallToolResult\b[^}]*\} from '@modelcontextprotocol\/server'|import \{[^}]*\btype CallToolResult\b[^}]*\} from '@modelcontextprotocol\/server'/,
    );
    expect(notes.some(n => /"content" is typed CallToolResult\['content'\]/.test(n))).toBe(true);
  });

  it('leaves JavaScript without annotations', () => {
    const js = `const { Server } = require('@modelcontextprotocol/sdk/server/index.js');
const { CallToolRequestSchema } = require('@modelcontextprotocol/sdk/types.js');
const server = new Server({ name: 's', version: '1' }, { capabilities: { tools: {} } });
server.setRequestHandler(CallToolRequestSchema, async () => {
  const content = [];
  content.push({ type: 'text', text: 'hi' });
  return { content };
});
`;
    const { text } = upgraded(js, '/project/src/server.cjs');
    expect(text).toContain('const content = [];');
    expect(text).not.toContain('CallToolResult');
  });
});
