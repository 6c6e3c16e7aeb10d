/**
 * The hoisting pre-pass (src/analysis/hoist.ts) on real handlers: each is hoisted with the SDK's
 * types, then the handler as written and the handler as hoisted both run against one scripted
 * client, for every combination of their boolean inputs. They must send the same requests in the
 * same order, run the same effects in the same order, and return the same value.
 */
import path from 'node:path';
import { Project, SyntaxKind, ts } from 'ts-morph';
import { describe, expect, it } from 'vitest';
import { hoistAwaits } from '../src/analysis/hoist.js';

const root = path.resolve(import.meta.dirname, '..');
const project = new Project({
  skipAddingFilesFromTsConfig: true,
  skipFileDependencyResolution: true,
  compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, lib: ['lib.es2022.d.ts'], strict: true, skipLibCheck: true, noEmit: true }
});
let counter = 0;

/** A file registering one tool whose handler has this body; the handler's text before and after hoisting. */
function hoist(body: string): { before: string; after: string | undefined; sites: number } {
  const text = [
    "import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';",
    "import { z } from 'zod';",
    "const server = new McpServer({ name: 't', version: '1.0.0' });",
    'declare const note: <T>(value: T) => T;',
    "server.registerTool('t', { inputSchema: { a: z.boolean(), b: z.boolean() } }, async ({ a, b }) => {",
    body,
    '});',
    ''
  ].join('\n');
  const sf = project.createSourceFile(path.join(root, '.tmp', 'hoist-test', `case${++counter}.ts`), text, { overwrite: true });
  const handlerText = () => sf.getDescendantsOfKind(SyntaxKind.ArrowFunction)[0]!.getText();
  const before = handlerText();
  const done = hoistAwaits(sf);
  return { before, after: done ? handlerText() : undefined, sites: done?.sites.size ?? 0 };
}

type Handler = (args: { a: boolean; b: boolean }) => Promise<unknown>;

/** Runs a handler's text with a client that logs each request and answers from a script; effects go through `note`. */
async function run(handlerText: string, args: { a: boolean; b: boolean }): Promise<{ log: string[]; result: unknown }> {
  const log: string[] = [];
  const answers = [{ action: 'accept', content: { text: 'typed' } }, { action: 'decline' }, { action: 'cancel' }];
  let sampled = 0;
  const server = {
    server: {
      elicitInput: async (params: { message: string }) => {
        log.push(`elicit ${params.message}`);
        return answers.shift() ?? { action: 'cancel' };
      },
      createMessage: async () => {
        log.push('sample');
        return { model: `m${++sampled}`, role: 'assistant', content: { type: 'text', text: 'said' } };
      },
      listRoots: async () => {
        log.push('roots');
        return { roots: [{ uri: 'file:///a' }] };
      }
    }
  };
  const note = <T>(value: T): T => {
    log.push(`note ${JSON.stringify(value)}`);
    return value;
  };
  const js = ts.transpileModule(`export default ${handlerText};`, { compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.CommonJS } }).outputText;
  const exports: { default?: Handler } = {};
  new Function('exports', 'server', 'note', js)(exports, server, note);
  const result = await exports.default!(args);
  return { log, result };
}

const inputs = [false, true].flatMap(a => [false, true].map(b => ({ a, b })));

/** Hoists `body`, checks it changed, and checks both versions behave the same on every input. */
async function sameBehaviour(body: string): Promise<{ after: string; logs: string[][] }> {
  const { before, after } = hoist(body);
  expect(after, 'hoisted').toBeDefined();
  const logs: string[][] = [];
  for (const args of inputs) {
    const original = await run(before, args);
    const hoisted = await run(after!, args);
    expect(hoisted, JSON.stringify(args)).toEqual(original);
    logs.push(original.log);
  }
  return { after: after!, logs };
}

describe('hoisting awaits out of expressions', () => {
  it('keeps evaluation order: effects before, between and after two requests of one call', async () => {
    const { after, logs } = await sameBehaviour(
      "  return [note('first'), (await server.server.elicitInput({ message: note('one') })).action, note('middle'), (await server.server.createMessage({ messages: [], maxTokens: 1 })).model, note('last')];"
    );
    expect(logs[0]).toEqual(['note "first"', 'note "one"', 'elicit one', 'note "middle"', 'sample', 'note "last"']);
    expect(after).toMatch(/const answer = await server\.server\.elicitInput/);
    expect(after).toMatch(/const sample = await server\.server\.createMessage/);
  });

  it('runs an effect written before the await before the request is made', async () => {
    const { logs } = await sameBehaviour(
      "  let count = 0;\n  const seen = [count++, (await server.server.elicitInput({ message: `after ${count}` })).action, count];\n  return note(seen);"
    );
    expect(logs[0]).toEqual(['elicit after 1', 'note [0,"accept",1]']);
  });

  it('sends a request under ?: only on its side', async () => {
    const { after, logs } = await sameBehaviour(
      "  const verdict = a ? (await server.server.elicitInput({ message: 'approve' })).action : note('auto');\n  return verdict;"
    );
    expect(logs).toEqual([['note "auto"'], ['note "auto"'], ['elicit approve'], ['elicit approve']]);
    expect(after).toMatch(/let verdict!: [^;]+;\n {2}if \(a\) \{\n {4}verdict = \(await server\.server\.elicitInput/);
  });

  it('sends a request on the right of &&, || and ?? only when the left does not decide', async () => {
    const { logs } = await sameBehaviour(
      [
        "  const both = a && (await server.server.elicitInput({ message: 'and' })).action;",
        "  const either = b || (await server.server.elicitInput({ message: 'or' })).action;",
        "  const given = (a ? 'given' : undefined) ?? (await server.server.elicitInput({ message: 'nullish' })).action;",
        '  return note([both, either, given]);'
      ].join('\n')
    );
    expect(logs.map(l => l.filter(x => x.startsWith('elicit')))).toEqual([
      ['elicit or', 'elicit nullish'],
      ['elicit nullish'],
      ['elicit and', 'elicit or'],
      ['elicit and']
    ]);
  });

  it('keeps a short-circuit used as a statement, in an if test and in a returned conditional', async () => {
    await sameBehaviour(
      [
        "  a && note((await server.server.elicitInput({ message: 'log' })).action);",
        "  if (b && (await server.server.elicitInput({ message: 'really' })).action === 'accept') return note('yes');",
        "  return a ? (await server.server.listRoots()).roots.length : b ? (await server.server.createMessage({ messages: [], maxTokens: 1 })).model : note('none');"
      ].join('\n')
    );
  });

  it('gives braces to an if or loop body written without them', async () => {
    const { after } = await sameBehaviour(
      [
        "  for (const k of [1, 2]) note([k, (await server.server.elicitInput({ message: `loop ${k}` })).action, (await server.server.listRoots()).roots.length]);",
        "  if (a) return note([(await server.server.elicitInput({ message: 'then' })).action, (await server.server.createMessage({ messages: [], maxTokens: 1 })).model]);",
        "  else return note((b ? (await server.server.elicitInput({ message: 'else' })).action : 'none'));"
      ].join('\n')
    );
    expect(after).toMatch(/ {2}if \(a\) \{\n {4}const answer\d* = await server\.server\.elicitInput\(\{ message: 'then' \}\);\n/);
    expect(after).toMatch(/ {2}for \(const k of \[1, 2\]\) \{\n {4}const answer = await/);
  });

  it('leaves what the analysis already splits, and what it cannot, byte-identical', () => {
    // One await, nothing before it: the analysis splits the statement as it is.
    expect(hoist("  const r = (await server.server.elicitInput({ message: 'x' })).content;\n  return r;").after).toBeUndefined();
    // In a loop header: not a statement a phase can split, whatever is hoisted.
    expect(hoist("  while (a && (await server.server.elicitInput({ message: 'x' })).action === 'accept') { a = false; }\n  return a;").after).toBeUndefined();
    // A request in an optional call's arguments: whether it is sent depends on the callee.
    expect(hoist("  const f = b ? note : undefined;\n  return f?.(note('x'), await server.server.elicitInput({ message: 'x' }));").after).toBeUndefined();
  });
});
