/**
 * The wiring around the handlers: each server constructed with `requestState: { verify }`, a stdio entry
 * served by `serveStdio`, and an HTTP entry moved to a handler made by `createMcpHandler`.
 */
import type { HttpEntryPlan, ServerWiringPlan, StdioEntryPlan } from '../plan.js';
import { stateExports } from '../stateModule.js';
import type { Node } from 'jscodeshift';
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

export function rewriteStdioEntry(cx: RewriteContext, entry: StdioEntryPlan): void {
  const p = cx.at(entry.call, 'stdio connect call');
  const options = [
    entry.transportText === undefined ? '' : entry.transportText === 'transport' ? 'transport' : `transport: ${entry.transportText}`,
    entry.onerrorText === undefined ? '' : `onerror: ${entry.onerrorText}`,
  ].filter(Boolean);
  const replacement = cx.parseExpression(
    `${cx.use('stdio', 'serveStdio')}(() => ${entry.serverText}${options.length > 0 ? `, { ${options.join(', ')} }` : ''})`,
  );
  const parent = p.parent?.node as Node | undefined;
  const replaced = parent && parent.type === 'AwaitExpression' ? p.parent : p;
  replaced.replace(replacement);
  if (entry.thenText) {
    // (through a `void` in front of the chain)
    let statement = replaced.parent as typeof p | undefined;
    while (statement && (statement.node as Node).type === 'UnaryExpression') statement = statement.parent;
    if (!statement || !cx.j.ExpressionStatement.check(statement.node))
      throw new Error(
        `mrtr transform: the .then of the stdio connect call at offset ${entry.call.start} in ${cx.plan.file} is not a statement`,
      );
    cx.insertAfterStatement(statement, cx.parseStatements(entry.thenText));
  }
  if (entry.removeDeclaration) cx.at(entry.removeDeclaration, 'stdio transport declaration').prune();
  if (entry.declareServer) {
    const statement = cx.statementAt(entry.declareServer.before);
    if (!statement)
      throw new Error(
        `mrtr transform: cannot find the statement connecting the server at offset ${entry.declareServer.before} in ${cx.plan.file}`,
      );
    const declaration = cx.parseStatements(entry.declareServer.text)[0];
    // The statement's leading comments go with it to the top of the pair, where they were.
    const node = statement.node;
    // (copies without their place in the old text, which recast would otherwise print them by)
    declaration.comments = (node.comments ?? [])
      .filter(c => c.leading)
      .map(c => ({ type: c.type, value: c.value, leading: true, trailing: false }) as typeof c);
    node.comments = (node.comments ?? []).filter(c => !c.leading);
    cx.insertBeforeStatement(statement, declaration);
  }
}

/**
 * The handler, declared once outside the request handler, then either called in place of the
 * stateless server and transport or put in front of the session wiring for 2026-07-28 requests.
 */
export function rewriteHttpEntry(cx: RewriteContext, entry: HttpEntryPlan): void {
  const outer = cx.statementAt(entry.declareBefore);
  if (!outer)
    throw new Error(
      `mrtr transform: cannot find the statement holding the request handler at offset ${entry.declareBefore} in ${cx.plan.file}`,
    );
  const options = entry.mode === 'sessionful' ? `, { legacy: ${cx.stringLiteral('reject')} }` : '';
  const declaration = cx.parseStatements(
    `const ${entry.name} = ${cx.use('node', 'toNodeHandler')}(${cx.use('sdk', 'createMcpHandler')}(() => ${entry.factoryText}${options}));`,
  )[0];
  if (entry.mode === 'stateless') {
    const call = cx.parseStatements(`await ${entry.name}(${entry.argsText.join(', ')});`)[0];
    const replaced = cx.at(entry.replace!, 'handleRequest statement');
    call.comments = (replaced.node as Node).comments;
    replaced.replace(call);
    for (const r of entry.remove ?? []) cx.at(r, 'statement of the stateless transport').prune();
  } else {
    routeModernRequests(cx, entry);
  }
  cx.insertBeforeStatement(outer, declaration);
}

/** Sessionful: 2026-07-28 requests go to the handler before the session wiring sees them. */
function routeModernRequests(cx: RewriteContext, entry: HttpEntryPlan): void {
  const [req, res, body] = entry.argsText;
  const route = cx.statementAt(entry.routeBefore!);
  if (!route)
    throw new Error(`mrtr transform: cannot find the statement to route before at offset ${entry.routeBefore} in ${cx.plan.file}`);
  const [routing] = cx.parseStatements(
    [
      `if (!(await ${cx.use('sdk', 'isLegacyRequest')}(await ${cx.use('node', 'toWebRequest')}(${req}, ${body})))) {`,
      `  await ${entry.name}(${req}, ${res}, ${body});`,
      '  return;',
      '}',
    ].join('\n'),
  );
  routing.comments = [
    {
      type: 'CommentLine',
      value: ' 2026-07-28 requests are served per request; 2025-era requests keep the session wiring below.',
      leading: true,
      trailing: false,
    },
  ];
  route.insertBefore(routing);
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
