/** An HTTP entry moved to a handler made by `createMcpHandler`, for 2026-07-28 requests. */
import type { Node } from 'jscodeshift';
import type { HttpEntryPlan } from '../plan.js';
import type { RewriteContext } from './context.js';

export function rewriteHttpEntries(cx: RewriteContext): void {
  for (const entry of cx.plan.http) rewriteHttpEntry(cx, entry);
}

/**
 * The handler, declared once outside the request handler, then either called in place of the
 * stateless server and transport or put in front of the session wiring for 2026-07-28 requests.
 */
function rewriteHttpEntry(cx: RewriteContext, entry: HttpEntryPlan): void {
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
