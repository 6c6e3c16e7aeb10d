/**
 * The walks on the compiler's nodes that wrap only their matches (src/analysis/descendants.ts) find what
 * ts-morph's own walks find, in the same order: the site finder and the upgrade's repairs rely on it.
 */
import { Node, Project, SyntaxKind } from 'ts-morph';
import { describe, expect, it } from 'vitest';
import { descendantsWhere } from '../src/analysis/descendants.js';
import { identifiersNamed } from '../src/analysis/names.js';

const source = `
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
/** Throws {@link ErrorCode} when \`x\` is off. @param x the value */
export function check(x: number, f = (y: number) => new McpError(ErrorCode.InvalidParams, String(y))): void {
  const calls = [x].map(v => f(v));
  if (calls.length > 1) throw new McpError(ErrorCode['InternalError'], \`\${ErrorCode.InvalidRequest}\`);
  server.server.elicitInput({ message: 'm', requestedSchema: {} }).then(r => r.action);
}
`;

function file() {
  return new Project({ useInMemoryFileSystem: true }).createSourceFile('a.ts', source);
}

describe('descendantsWhere', () => {
  it('finds what forEachDescendant finds, parents before children, in source order', () => {
    const sf = file();
    const kinds = new Set([SyntaxKind.CallExpression, SyntaxKind.PropertyAccessExpression, SyntaxKind.NewExpression]);
    const walked: Node[] = [];
    sf.forEachDescendant(n => {
      if (kinds.has(n.getKind())) walked.push(n);
    });
    expect(walked.length).toBeGreaterThan(8);
    expect(descendantsWhere(sf, n => kinds.has(n.kind))).toEqual(walked);
  });

  it('finds the identifiers getDescendantsOfKind finds by name, those of JSDoc included', () => {
    const sf = file();
    const names = new Set(['ErrorCode', 'x']);
    const expected = sf.getDescendantsOfKind(SyntaxKind.Identifier).filter(id => names.has(id.getText()));
    expect(expected.some(id => id.getFirstAncestorByKind(SyntaxKind.JSDoc))).toBe(true);
    expect(identifiersNamed(sf, names)).toEqual(expected);
  });
});
