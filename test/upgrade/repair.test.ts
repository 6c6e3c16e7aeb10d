/**
 * What the repairs share (src/upgrade/repair.ts): the names a file declares at its top.
 */
import { describe, expect, it } from 'vitest';
import { Project } from 'ts-morph';
import { declaredAtTop } from '../../src/upgrade/repair.js';

describe('declaredAtTop, read from the statements', () => {
  it("says of every name what the binder's locals say", () => {
    const project = new Project({ useInMemoryFileSystem: true, compilerOptions: { allowJs: true, noLib: true } });
    const sf = project.createSourceFile(
      '/m.ts',
      `import d, { a, b as c } from './x.js';
import * as ns from './y.js';
import e = require('./z');
export const f = 1, { g, h: [i, , j] } = { g: 1, h: [1, 2, 3] };
let k: number;
export default function l() { const inner = 1; return inner; }
class M {}
enum N { X }
interface O {}
type P = string;
namespace Q { export const r = 1; }
declare module './w.js' { const s: number; }
export { k as t };
`,
    );
    const names = [
      'd',
      'a',
      'b',
      'c',
      'ns',
      'e',
      'f',
      'g',
      'h',
      'i',
      'j',
      'k',
      'l',
      'inner',
      'M',
      'N',
      'X',
      'O',
      'P',
      'Q',
      'r',
      's',
      't',
      'z',
    ];
    for (const name of names) expect([name, declaredAtTop(sf, name)]).toEqual([name, sf.getLocal(name) !== undefined]);
  });
});
