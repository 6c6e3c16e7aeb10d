/**
 * src/positions.ts pairs the upgraded text's lines with the file's by how alike two lines are: the
 * characters a character diff keeps, counted without building the diff. The count is the diff's.
 */
import { diffChars } from 'diff';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { alike } from '../src/positions.js';

const kept = (a: string, b: string) => diffChars(a, b).reduce((n, c) => (c.added || c.removed ? n : n + c.value.length), 0);

describe('alike', () => {
  it('counts what a character diff of the two lines keeps', () => {
    // A small alphabet, so that the lines share characters in many ways.
    const line = fc.string({ unit: fc.constantFrom(...'ab( )x.y;\t'), maxLength: 60 });
    fc.assert(
      fc.property(line, line, (a, b) => alike(a, b) === kept(a, b)),
      { numRuns: 2000 },
    );
  });

  it('reads code lines as the upgrade leaves them', () => {
    const pairs: [string, string][] = [
      [
        "server.tool('add', { a: z.number() }, async ({ a }) => {",
        "server.registerTool('add', { inputSchema: z.object({ a: z.number() }) }, async ({ a }) => {",
      ],
      ['await extra.sendRequest(req, ElicitResultSchema);', 'await ctx.mcpReq.send(req);'],
      ['', 'x'],
    ];
    for (const [a, b] of pairs) expect(alike(a, b)).toBe(kept(a, b));
  });
});
