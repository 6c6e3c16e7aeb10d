/**
 * src/analysis/fileBindings.ts reads what a file's imports and requires bind from its syntax, so that the site
 * finder answers most calls without the type checker. Where the syntax settles the answer it must be the
 * checker's; where a name is also declared elsewhere in the file (it may be shadowed), the checker decides.
 */
import { describe, expect, it } from 'vitest';
import { Project, SyntaxKind, type CallExpression, type Identifier, type SourceFile } from 'ts-morph';
import { importedAs, mayAliasMember, onlyImportedAs, unreadModuleMayAliasMember } from '../src/analysis/fileBindings.js';
import { stateModuleCall } from '../src/find/stateCalls.js';
import { mcpImportOf, serverKindOf } from '../src/analysis/mcpSymbols.js';

function project(files: Record<string, string>): Project {
  const p = new Project({ useInMemoryFileSystem: true, compilerOptions: { allowJs: true, noLib: true } });
  for (const [name, text] of Object.entries(files)) p.createSourceFile(name, text);
  return p;
}

function file(text: string, name = 'main.ts'): SourceFile {
  return project({ [name]: text }).getSourceFileOrThrow(name);
}

/** The calls of main.ts whose callee is the identifier `name`. */
function callsOf(sf: SourceFile, name: string): CallExpression[] {
  return sf.getDescendantsOfKind(SyntaxKind.CallExpression).filter(c => c.getExpression().getText() === name);
}

describe('importedAs', () => {
  it.each([
    ["import { ask } from './m.js';", 'ask', { module: './m.js', name: 'ask' }],
    ["import { ask as a } from './m.js';", 'a', { module: './m.js', name: 'ask' }],
    ["import m from './m.js';", 'm', { module: './m.js', name: 'default' }],
    ["import * as ns from './m.js';", 'ns', { module: './m.js', name: '*' }],
    ["const ns = require('./m');", 'ns', { module: './m', name: '*' }],
    ["const { ask: a } = require('./m');", 'a', { module: './m', name: 'ask' }],
    ["const a = require('./m').ask;", 'a', { module: './m', name: 'ask' }],
  ] as const)('reads %s', (text, name, expected) => {
    expect(importedAs(file(text, 'main.js'), name)).toEqual(expected);
  });

  it('binds nothing for a name the file declares itself', () => {
    expect(importedAs(file('function ask() {}\nconst b = 1;'), 'ask')).toBeUndefined();
    expect(importedAs(file('const { ask } = other;'), 'ask')).toBeUndefined();
  });

  it.each([
    ['a parameter', 'function f(ask: () => void) { ask(); }'],
    ['a local variable', 'function f() { const ask = () => 1; ask(); }'],
    ['a destructured parameter', 'function f({ ask }: { ask: () => void }) { ask(); }'],
    ['a function', 'function g() { function ask() {} }'],
  ])('leaves a name shadowed by %s to the checker', (_, body) => {
    const sf = file(`import { ask } from './m.js';\n${body}`);
    expect(importedAs(sf, 'ask')).toBeDefined();
    expect(onlyImportedAs(sf, 'ask')).toBeUndefined();
  });
});

describe('mayAliasMember', () => {
  const methods = new Set(['elicitInput']);
  it.each([
    ['const ask = server.elicitInput;'],
    ['const ask = server.server.elicitInput.bind(server.server);'],
    ["const ask = (server['elicitInput']);"],
    ['const { elicitInput: ask } = server;'],
  ])('sees %s', text => {
    expect(mayAliasMember(file(text), 'ask', methods)).toBe(true);
  });

  it('does not take a variable holding what a request returns for the method', () => {
    expect(mayAliasMember(file('const ask = await server.elicitInput({});'), 'ask', methods)).toBe(false);
  });

  it('reads a module the run did not read from its text: an alias, or a re-export of another module, may be one', () => {
    const p = new Project({ useInMemoryFileSystem: true, compilerOptions: { allowJs: true, noLib: true } });
    const fs = p.getFileSystem();
    fs.writeFileSync('/a.ts', 'export const ask = server.elicitInput.bind(server);');
    fs.writeFileSync('/b.ts', "export { confirm as ask } from './confirm.js';");
    fs.writeFileSync('/c.ts', 'export function ok<T>(value: T) { return { ok: true, value }; }');
    const importer = p.createSourceFile('/main.ts', "import { ask } from './a.js';\n");
    expect(unreadModuleMayAliasMember(importer, '/a.ts', methods)).toBe(true);
    expect(unreadModuleMayAliasMember(importer, '/b.ts', methods)).toBe(true);
    expect(unreadModuleMayAliasMember(importer, '/c.ts', methods)).toBe(false);
  });

  it('reads the destructurings of a module the run did not read: of a parameter, of an array, of a require', () => {
    const p = new Project({ useInMemoryFileSystem: true, compilerOptions: { allowJs: true, noLib: true } });
    const fs = p.getFileSystem();
    fs.writeFileSync('/d.ts', 'export const run = ({ items }: { items: string[] }) => items.map(([first]) => first);');
    fs.writeFileSync('/e.js', "const { readFile } = require('node:fs/promises');\nexport const { elicitInput: ask } = server;");
    const importer = p.createSourceFile('/main.ts', "import { run } from './d.js';\n");
    expect(unreadModuleMayAliasMember(importer, '/d.ts', methods)).toBe(false);
    expect(unreadModuleMayAliasMember(importer, '/e.js', methods)).toBe(true);
  });
});

const STATE = 'export function ask(server: unknown) { return server; }\nexport function seal() {}\n';

describe('stateModuleCall from the syntax, as the checker says', () => {
  const state = (main: string, name = 'ask') => {
    const p = project({ 'mcp-migrate-state.ts': STATE, 'barrel.ts': "export { ask } from './mcp-migrate-state.js';\n", 'main.ts': main });
    return callsOf(p.getSourceFileOrThrow('main.ts'), name).map(c => stateModuleCall(c));
  };

  it("knows the module's functions, under whatever name they are imported", () => {
    expect(state("import { ask } from './mcp-migrate-state.js';\nask(1);")).toEqual(['ask']);
    expect(state("import { ask as q } from './mcp-migrate-state.js';\nq(1);", 'q')).toEqual(['ask']);
    expect(state("import { seal } from './mcp-migrate-state.js';\nseal();", 'seal')).toEqual(['other']);
  });

  it('follows a re-export of one of its functions', () => {
    expect(state("import { ask } from './barrel.js';\nask(1);")).toEqual(['ask']);
  });

  it('takes a function of the file, or a shadowing parameter, for none of them', () => {
    expect(state('function ask(x: number) { return x; }\nask(1);')).toEqual([undefined]);
    expect(state("import { ask } from './mcp-migrate-state.js';\nask(1);\nfunction f(ask: (n: number) => void) { ask(2); }")).toEqual([
      'ask',
      undefined,
    ]);
  });
});

describe('mcpImportOf from the syntax, as the checker says', () => {
  const imported = (text: string, name: string) => {
    const sf = file(text);
    const id = sf
      .getDescendantsOfKind(SyntaxKind.Identifier)
      .filter(i => i.getText() === name)
      .pop() as Identifier;
    return mcpImportOf(id);
  };

  it('reads an SDK import under its exported name', () => {
    expect(imported("import { McpServer as M } from '@modelcontextprotocol/server';\nnew M();", 'M')).toEqual({
      module: '@modelcontextprotocol/server',
      exportName: 'McpServer',
    });
    expect(imported("const { McpServer } = require('@modelcontextprotocol/sdk/server/mcp.js');\nnew McpServer();", 'McpServer')).toEqual({
      module: '@modelcontextprotocol/sdk/server/mcp.js',
      exportName: 'McpServer',
    });
  });

  it('gives nothing for a name no SDK import binds, or one a parameter shadows', () => {
    expect(imported("import { McpServer } from './mine.js';\nnew McpServer();", 'McpServer')).toBeUndefined();
    expect(imported('class McpServer {}\nnew McpServer();', 'McpServer')).toBeUndefined();
    expect(
      imported(
        "import { McpServer } from '@modelcontextprotocol/server';\nfunction f(McpServer: any) { return new McpServer(); }",
        'McpServer',
      ),
    ).toBeUndefined();
  });
});

describe('serverKindOf a construction through a loop over classes written out', () => {
  const made = (text: string) => {
    const sf = file(`import { McpServer } from '@modelcontextprotocol/server';\n${text}`);
    return sf.getDescendantsOfKind(SyntaxKind.NewExpression).map(n => serverKindOf(n));
  };

  it('says each listed class, from its declaration, directly or through a const', () => {
    const tools = `abstract class Tool { constructor(readonly s: unknown) {} }\nclass A extends Tool {}\nclass B extends Tool {}\n`;
    expect(made(`${tools}for (const T of [A, B]) new T(1);`)).toEqual([undefined]);
    expect(made(`${tools}const ALL = [A, B] as const;\nfor (const T of ALL) new T(1);`)).toEqual([undefined]);
    // A let may be given another class in the loop: only the checker can say.
    expect(made(`declare const Other: any;\nfor (let S of [McpServer]) { S = Other; new S({ name: 'n', version: '1' }); }`)).toEqual([
      undefined,
    ]);
    expect(made(`class Notes extends McpServer {}\nfor (const S of [McpServer, Notes]) new S({ name: 'n', version: '1' });`)).toEqual([
      'McpServer',
    ]);
  });
});
