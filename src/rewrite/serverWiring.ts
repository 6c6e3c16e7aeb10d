/**
 * The servers the handlers are registered on, each constructed with `requestState: { verify }` in its options,
 * written in the file's own layout.
 */
import type { ServerWiringPlan } from '../plan.js';
import { stateExports } from '../stateModule.js';
import type { RewriteContext } from './context.js';
import type { CodeStyle } from './style.js';

export function wireServers(cx: RewriteContext): void {
  for (const server of cx.plan.servers) {
    const p = cx.at(server.construct, 'server construction');
    const wired = relativeToItsLine(
      cx.source,
      server.construct.start,
      wiredConstruction(cx.source, server, cx.use('state', stateExports.verify), cx.style),
    );
    p.replace(/^super\s*\(/.test(wired) ? cx.parseSuperCall(wired) : cx.parseExpression(wired));
  }
}

/**
 * Text written in the file's layout, its later lines indented as they will stand, made relative to the
 * indentation of the line it starts on: the printer indents a replacement's later lines by that line's.
 */
function relativeToItsLine(source: string, start: number, text: string): string {
  const indent = indentOfLineAt(source, start);
  if (!indent) return text;
  return text
    .split('\n')
    .map((line, i) => (i > 0 && line.startsWith(indent) ? line.slice(indent.length) : line))
    .join('\n');
}

/** The indentation of the line `offset` is on. */
function indentOfLineAt(source: string, offset: number): string {
  return /^[ \t]*/.exec(source.slice(source.lastIndexOf('\n', offset - 1) + 1))![0];
}

/**
 * The server construction with `requestState: { verify }` in its options, written as text in the file's own
 * layout (an object literal keeps its lines, its indentation and its trailing comma), so nothing is reprinted.
 */
export function wiredConstruction(source: string, server: ServerWiringPlan, verify: string, style: CodeStyle): string {
  const unit = style.unit;
  const property = `requestState: { verify: ${verify} }`;
  const { construct, options, firstArg } = server;
  if (!options) {
    const close = source.lastIndexOf(')', construct.end);
    return `${source.slice(construct.start, close)}${firstArg ? '' : '{}'}, { ${property} }${source.slice(close, construct.end)}`;
  }
  const literal = source.slice(options.start, options.end);
  const withProperty = server.optionsIsObjectLiteral ? withLastProperty(literal, property, unit) : `{ ...${literal}, ${property} }`;
  const wired = `${source.slice(construct.start, options.start)}${withProperty}${source.slice(options.end, construct.end)}`;
  // Grown past the line length a formatter keeps, a literal on one line gets a line per property.
  const lineStart = source.lastIndexOf('\n', construct.start - 1) + 1;
  const tooLong = source.slice(lineStart, construct.start).length + wired.split('\n')[0]!.length > style.lineWidth;
  if (!tooLong || !server.optionProperties || literal.includes('\n')) return wired;
  const indent = indentOfLineAt(source, construct.start);
  const items = [...server.optionProperties.map(r => source.slice(r.start, r.end)), property].map(p => `${indent}${unit}${p}`);
  const body = `${items.join(',\n')}${style.trailingCommas ? ',' : ''}`;
  return `${source.slice(construct.start, options.start)}{\n${body}\n${indent}}${source.slice(options.end, construct.end)}`;
}

/** An object literal's text with one more property, on a line of its own when its properties are (`as` casts kept). */
export function withLastProperty(literal: string, property: string, unit: string): string {
  const close = literal.lastIndexOf('}');
  const inside = literal.slice(literal.indexOf('{') + 1, close);
  if (inside.trim() === '') return `${literal.slice(0, literal.indexOf('{'))}{ ${property} }${literal.slice(close + 1)}`;
  const before = literal.slice(0, close).replace(/\s*$/, '');
  const multiline = /\n\s*$/.test(literal.slice(0, close));
  const comma = before.endsWith(',') ? '' : ',';
  if (!multiline) return `${before}${comma} ${property} ${literal.slice(close)}`;
  const lastLine = before.slice(before.lastIndexOf('\n') + 1);
  const closeIndent = /[ \t]*$/.exec(literal.slice(0, close))![0];
  const indent = /^[ \t]*/.exec(lastLine)![0] || closeIndent + unit;
  return `${before}${comma}\n${indent}${property}${comma ? '' : ','}\n${closeIndent}${literal.slice(close)}`;
}
