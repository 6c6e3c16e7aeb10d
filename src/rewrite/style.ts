/**
 * The file's own way of writing code, read from its text, so that what the rewrite writes looks like what
 * was there: quotes, indentation unit (a tab, two or four spaces), semicolons, trailing commas, and
 * whether a lone arrow parameter is parenthesised.
 */
export interface CodeStyle {
  quote: 'single' | 'double';
  /** One level of indentation: `'\t'`, `'  '` or `'    '`. */
  unit: string;
  semicolons: boolean;
  /** Whether a multi-line list ends with a comma. */
  trailingCommas: boolean;
  /** Whether a lone arrow parameter is written `(x) =>` (prettier's `arrowParens: 'always'`) rather than `x =>`. */
  arrowParens: boolean;
  /** Lines longer than this are broken, one item per line: the width the file's code keeps to. */
  lineWidth: number;
}

/** The widths a formatter is set to, from its default (80) to the widest commonly configured (120). */
const NARROWEST = 80;
const WIDEST = 120;

/**
 * The width the file keeps to: its longest line of code (comments aside), within 80 and 120. A file a
 * formatter keeps at 80 gets its imports broken at 80; one whose author writes 150-character lines gets a
 * 105-character import on one line, as it would write it.
 */
export function lineWidth(source: string): number {
  let longest = 0;
  for (const line of source.split('\n')) {
    const code = line.trimEnd();
    if (!/^\s*(?:\/\/|\/?\*)/.test(code)) longest = Math.max(longest, code.length);
  }
  return Math.min(WIDEST, Math.max(NARROWEST, longest));
}

export function codeStyle(source: string): CodeStyle {
  const single = source.match(/'/g)?.length ?? 0;
  const double = source.match(/"/g)?.length ?? 0;
  // Lines ending a statement with a semicolon, against lines ending one without (a call, a name, a literal).
  const withSemicolon = source.match(/;[ \t]*\r?$/gm)?.length ?? 0;
  const without = source.match(/[)\]'"`\w][ \t]*\r?$/gm)?.length ?? 0;
  return {
    quote: single >= double ? 'single' : 'double',
    unit: indentUnit(source),
    semicolons: withSemicolon >= without,
    trailingCommas: /,[ \t]*\r?\n[ \t]*[}\])]/.test(source),
    arrowParens:
      (source.match(/(?<![\w$.)])\([A-Za-z_$][\w$]*\) =>/g)?.length ?? 0) > (source.match(/(?<![\w$.])[A-Za-z_$][\w$]* =>/g)?.length ?? 0),
    lineWidth: lineWidth(source),
  };
}

export function indentUnit(source: string): string {
  if (/^\t/m.test(source) && !/^ {2}/m.test(source)) return '\t';
  const counts = new Map<number, number>();
  let prev = 0;
  for (const line of source.split('\n')) {
    if (line.trim() === '') continue;
    const width = /^ */.exec(line)![0].length;
    if (width > prev) counts.set(width - prev, (counts.get(width - prev) ?? 0) + 1);
    prev = width;
  }
  const best = [...counts.entries()].filter(([w]) => w === 2 || w === 4).sort((a, b) => b[1] - a[1])[0];
  return ' '.repeat(best?.[0] ?? 2);
}

/** An arrow function's lone parameter as the file writes it. */
export function arrowParam(name: string, style: Pick<CodeStyle, 'arrowParens'>): string {
  return style.arrowParens ? `(${name})` : name;
}

export function quoted(value: string, style: Pick<CodeStyle, 'quote'>): string {
  return style.quote === 'single' ? `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'` : JSON.stringify(value);
}

/**
 * `import { a, b as c } from 'm';` (or `import type`, or `const { a, b: c } = require('m');`) as the file
 * writes it: on one line when it fits, else one name per line.
 */
export function importText(names: string[], module: string, kind: 'import' | 'import type' | 'require', style: CodeStyle): string {
  const semi = style.semicolons ? ';' : '';
  const [open, close] =
    kind === 'require'
      ? ['const {', `} = require(${quoted(module, style)})${semi}`]
      : [`${kind} {`, `} from ${quoted(module, style)}${semi}`];
  const oneLine = `${open} ${names.join(', ')} ${close}`;
  if (oneLine.length <= style.lineWidth) return oneLine;
  return `${open}\n${names
    .map(n => `${style.unit}${n},`)
    .join('\n')
    .replace(/,$/, style.trailingCommas ? ',' : '')}\n${close}`;
}
