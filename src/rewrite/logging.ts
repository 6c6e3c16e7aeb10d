/**
 * A log message a handler sends on the connection becomes the request's own, sent through the handler's
 * context at the level the request asks for (src/analysis/logging.ts):
 *
 *   await server.sendLoggingMessage({ level: 'info', data: text }, extra.sessionId)
 *   → await ctx.mcpReq.log('info', text)
 *
 * The session id a 2025-era server passed is dropped: the context knows its session. Params held in a name
 * are read member by member (`ctx.mcpReq.log(params.level, params.data)`).
 */
import type { CallExpression, ObjectExpression } from 'jscodeshift';
import type { ExpressionNode, RewriteContext } from './context.js';

export function rewriteLogging(cx: RewriteContext): void {
  const { j } = cx;
  for (const log of cx.plan.logs) {
    // A call, optional (`?.(`) or not: both have their arguments.
    const p = cx.at(log.call, 'log message');
    const params = (p.node as CallExpression).arguments[0];
    const args =
      log.members && j.Identifier.check(params)
        ? log.members.map(name => j.memberExpression(j.identifier(params.name), j.identifier(name)))
        : literalArguments(cx, params);
    p.replace(
      j.callExpression(
        j.memberExpression(j.memberExpression(j.identifier(log.context), j.identifier('mcpReq')), j.identifier('log')),
        args,
      ),
    );
    if (log.addContextTo) cx.at(log.addContextTo, 'handler given its context', j.Function).node.params.push(j.identifier(log.context));
  }
}

/** `level, data[, logger]`: the values of the params' object literal (the analysis planned the rewrite of no other). */
function literalArguments(cx: RewriteContext, params: unknown): ExpressionNode[] {
  if (!cx.j.ObjectExpression.check(params))
    throw new Error(`mrtr transform: the params of a log message in ${cx.plan.file} are not an object literal`);
  const value = (name: string): ExpressionNode | undefined => {
    for (const prop of (params as ObjectExpression).properties) {
      if (prop.type !== 'ObjectProperty' && prop.type !== 'Property') continue;
      const key = prop.key.type === 'Identifier' ? prop.key.name : 'value' in prop.key ? prop.key.value : undefined;
      if (key === name) return prop.value as ExpressionNode;
    }
    return undefined;
  };
  const [level, data, logger] = [value('level'), value('data'), value('logger')];
  if (!level || !data) throw new Error(`mrtr transform: a log message in ${cx.plan.file} names no level or no data`);
  return [level, data, ...(logger ? [logger] : [])];
}
