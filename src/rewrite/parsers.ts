/**
 * The rewrite's parsers. jscodeshift's `j(text)` gives recast's tree, to edit and print keeping the file's
 * formatting; where only positions are read or whether the text parses, the same Babel parser is called on
 * its own: recast's copy of the tree costs about four times the parse.
 */
import { createRequire } from 'node:module';
import type { File } from 'jscodeshift';

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

/** jscodeshift's parser for a file, by its extension: Babel with the TypeScript plugin (JSX too where it can be). */
export function parserFor(file: string): 'ts' | 'tsx' | 'babel' {
  if (/\.tsx$/.test(file)) return 'tsx';
  if (/\.[mc]?tsx?$/.test(file)) return 'ts';
  return 'tsx';
}

interface Parser {
  parse(text: string): File;
}

const parsers = new Map<string, Parser>();

/**
 * jscodeshift's own table of parsers (the options `j(text)` parses with); the package declares no types for it.
 * Loaded when first needed: a run with nothing to rewrite (a CI gate on a migrated tree) never parses with Babel.
 */
function getParser(name: string): Parser {
  const table = createRequire(import.meta.url)('jscodeshift/src/getParser.js') as (name: string) => Parser;
  return table(name);
}

/** The Babel tree (a `File`) of `text` as jscodeshift parses `file`, without recast's copy; throws on a syntax error. */
export function parseOnly(file: string, text: string): File {
  const name = parserFor(file);
  let parser = parsers.get(name);
  if (!parser) parsers.set(name, (parser = getParser(name)));
  return parser.parse(text);
}
