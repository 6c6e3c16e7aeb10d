/**
 * src/analysis/projectNames.ts answers "no" without the type checker only where no project file can say
 * otherwise: every way a file can give a member a name, or extend a class, keeps the answer "maybe".
 */
import { describe, expect, it } from 'vitest';
import { Project, SyntaxKind, type PropertyAccessExpression } from 'ts-morph';
import { classMembersOf, projectMayDeclareMember, projectMayExtend } from '../src/analysis/projectNames.js';

function project(files: Record<string, string>): Project {
  const p = new Project({ useInMemoryFileSystem: true, compilerOptions: { allowJs: true, noLib: true } });
  for (const [name, text] of Object.entries(files)) p.createSourceFile(name, text);
  return p;
}

/** Whether the project may declare the member called as `<receiver>.<name>(...)` in main.ts. */
function mayDeclare(files: Record<string, string>, name: string): boolean {
  const p = project({ 'main.ts': `declare const x: any;\nx.${name}();\n`, ...files });
  const access = p
    .getSourceFileOrThrow('main.ts')
    .getFirstDescendantByKindOrThrow(SyntaxKind.PropertyAccessExpression) as PropertyAccessExpression;
  return projectMayDeclareMember(access, access.getName());
}

describe('projectMayDeclareMember', () => {
  it('says no for a name only ever read through a property', () => {
    expect(mayDeclare({ 'other.ts': 'declare const s: any;\nexport const t = s.trim();\n' }, 'trim')).toBe(false);
  });

  it.each([
    ['a class method', 'export class A { trim() {} }'],
    ['an object literal key', 'export const o = { trim: () => 1 };'],
    ['a shorthand property', 'function trim() {}\nexport const o = { trim };'],
    ['a string key', "export const o = { 'trim': () => 1 };"],
    ['an assignment to a property', 'declare const o: any;\no.trim = () => 1;'],
    ['a compound assignment to a property', 'declare const o: any;\no.trim ??= () => 1;'],
    ['an assignment through parentheses', 'declare const o: any;\n(o.trim) = () => 1;'],
    ['a defineProperty', "declare const o: any;\nObject.defineProperty(o, 'trim', { value: 1 });"],
    ['an exported function (a namespace import reads it as a property)', 'export function trim() {}'],
    ['an export alias', 'function cut() {}\nexport { cut as trim };'],
    ['a JavaScript exports assignment', { 'lib.js': 'exports.trim = function () {};' }],
  ] as const)('says maybe for %s', (_, file) => {
    expect(mayDeclare(typeof file === 'string' ? { 'other.ts': file } : file, 'trim')).toBe(true);
  });

  it.each([
    ['export default function ask() {}'],
    ['export default async () => 1;'],
    ['const ask = () => 1;\nexport default ask;'],
    ['const ask = () => 1;\nexport { ask as default };'],
  ])("says maybe for a default export, a module namespace's `default` (%s)", file => {
    expect(mayDeclare({ 'ask.ts': file }, 'default')).toBe(true);
  });

  it('says maybe for a private name', () => {
    const p = project({ 'a.ts': 'export class A { #trim() {} run() { this.#trim(); } }' });
    const access = p.getSourceFileOrThrow('a.ts').getFirstDescendantByKindOrThrow(SyntaxKind.PropertyAccessExpression);
    expect(projectMayDeclareMember(access, access.getName())).toBe(true);
  });

  it('sees a new text of a file', () => {
    const p = project({ 'main.ts': 'declare const x: any;\nx.trim();\n', 'other.ts': 'export const a = 1;\n' });
    const access = () => p.getSourceFileOrThrow('main.ts').getFirstDescendantByKindOrThrow(SyntaxKind.PropertyAccessExpression);
    expect(projectMayDeclareMember(access(), 'trim')).toBe(false);
    p.getSourceFileOrThrow('other.ts').replaceWithText('export const o = { trim() {} };\n');
    expect(projectMayDeclareMember(access(), 'trim')).toBe(true);
  });
});

describe('projectMayExtend', () => {
  const base = (p: Project) => p.getSourceFileOrThrow('base.ts').getClassOrThrow('Base');

  it('says no for a class no extends clause names', () => {
    expect(
      projectMayExtend(
        base(
          project({
            'base.ts': 'export class Base {}',
            'a.ts': "import { Base } from './base';\nexport class A { b = new Base(); }\nclass C extends Other {}\ndeclare class Other {}",
          }),
        ),
      ),
    ).toBe(false);
  });

  it.each<[string, string | undefined, string?]>([
    ['by its name', "import { Base } from './base';\nexport class A extends Base {}"],
    ['through a namespace', "import * as b from './base';\nexport class A extends b.Base {}"],
    ['under an import alias', "import { Base as Root } from './base';\nexport class A extends Root {}"],
    [
      'under an alias of a re-export',
      "export { Base as Root } from './base';\n",
      "import { Root as R } from './a';\nexport class C extends R {}",
    ],
    ['in its own file', undefined],
  ])('says maybe when extended %s', (_, a, c) => {
    const files: Record<string, string> = {
      'base.ts': a === undefined ? 'export class Base {}\nclass Sub extends Base {}' : 'export class Base {}',
    };
    if (a) files['a.ts'] = a;
    if (c) files['c.ts'] = c;
    expect(projectMayExtend(base(project(files)))).toBe(true);
  });

  it('says maybe for a default export, and for a JavaScript file that requires and extends', () => {
    const p = project({ 'base.ts': 'export default class Base {}' });
    expect(projectMayExtend(base(p))).toBe(true);
    const js = project({ 'base.ts': 'export class Base {}', 'a.js': "const { Base: Root } = require('./base');\nclass A extends Root {}" });
    expect(projectMayExtend(base(js))).toBe(true);
  });
});

describe('classMembersOf', () => {
  it('gives the names of the members of the classes a file declares or makes, and nothing else', () => {
    const sf = project({
      'a.ts':
        "export class A { tool() {} 'registerTool' = 1; #hidden = 2; static make() {} }\nexport const B = class { prompt() {} };\nconst o = { resource: 1 };\nfunction setRequestHandler() {}\n",
    }).getSourceFileOrThrow('a.ts');
    expect([...classMembersOf(sf.compilerNode)].sort()).toEqual(['make', 'prompt', 'registerTool', 'tool']);
  });
});
