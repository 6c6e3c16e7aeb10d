/**
 * The rewrite's one parser: Babel with the TypeScript plugin, in the options jscodeshift's own `ts` and `tsx`
 * parsers use. `j(text)` parses with it (recast's tree, to edit and print keeping the file's formatting), and
 * where only positions are read or whether the text parses, it is called on its own: recast's copy of the tree
 * costs about four times the parse.
 */
import type { ParserOptions, ParserPlugin } from '@babel/parser';
import type { File } from 'jscodeshift';
import { createRequire } from 'node:module';

/**
 * What Babel's nodes carry that ast-types (jscodeshift's declarations) does not declare: their offsets in the
 * text parsed, and whether they were written in parentheses.
 */
export interface BabelExtras {
  start?: number | null;
  end?: number | null;
  extra?: { parenthesized?: boolean } | null;
}

/** A node's offsets in the text parsed, when Babel gave it some (a node the rewrite made has none). */
export function offsetsOf(node: object): { start: number; end: number } | undefined {
  const { start, end } = node as BabelExtras;
  return typeof start === 'number' && typeof end === 'number' ? { start, end } : undefined;
}

/** A parser as jscodeshift's `withParser` takes one. */
export interface Parser {
  parse(text: string): File;
}

/** The plugins of jscodeshift's parser/tsOptions.js (what `withParser('ts')` parsed with before this module). */
const PLUGINS: ParserPlugin[] = [
  'asyncGenerators',
  'decoratorAutoAccessors',
  'bigInt',
  'classPrivateMethods',
  'classPrivateProperties',
  'classProperties',
  'decorators-legacy',
  'doExpressions',
  'dynamicImport',
  'exportDefaultFrom',
  'exportNamespaceFrom',
  'functionBind',
  'functionSent',
  'importAttributes',
  'importMeta',
  'nullishCoalescingOperator',
  'numericSeparator',
  'objectRestSpread',
  'optionalCatchBinding',
  'optionalChaining',
  ['pipelineOperator', { proposal: 'minimal' }],
  'throwExpressions',
  'typescript',
];

const OPTIONS: ParserOptions = {
  sourceType: 'module',
  allowImportExportEverywhere: true,
  allowReturnOutsideFunction: true,
  startLine: 1,
  plugins: PLUGINS,
};

/**
 * With JSX for .tsx and for JavaScript (a `.js` file may hold JSX; TypeScript's angle-bracket casts exist only
 * in .ts files, which JSX would misread). recast needs the tokens; a parse for positions does not.
 */
function optionsFor(file: string, tokens: boolean): ParserOptions {
  const jsx = /\.tsx$/.test(file) || !/\.[mc]?ts$/.test(file);
  return { ...OPTIONS, tokens, plugins: jsx ? ['jsx', ...PLUGINS] : PLUGINS };
}

/**
 * Babel, loaded by the first parse: `--help`, `verify` and a run with nothing to rewrite (a CI gate on a migrated
 * tree) never load it.
 */
let babel: typeof import('@babel/parser') | undefined;
function parse(text: string, options: ParserOptions): File {
  babel ??= createRequire(import.meta.url)('@babel/parser') as typeof import('@babel/parser');
  return babel.parse(text, options) as unknown as File;
}

/** The parser `j(text)` is made with for `file` (jscodeshift's `withParser(rewriteParser(file))`). */
export function rewriteParser(file: string): Parser {
  const options = optionsFor(file, true);
  return { parse: text => parse(text, options) };
}

/** The Babel tree (a `File`) of `text` as the rewrite parses `file`, without recast's copy; throws on a syntax error. */
export function parseOnly(file: string, text: string): File {
  return parse(text, optionsFor(file, false));
}
