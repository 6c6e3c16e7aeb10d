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
import type { AnyNode, RewriteContext } from './context.js';

export function rewriteLogging(cx: RewriteContext): void {
  const { j } = cx;
  for (const log of cx.plan.logs) {
    const p = cx.at(log.call, 'log message');
    const params: AnyNode = p.node.arguments[0];
    const args = log.members ? log.members.map(name => j.memberExpression(j.identifier(params.name), j.identifier(name))) : literalArguments(params);
    p.replace(j.callExpression(j.memberExpression(j.memberExpression(j.identifier(log.context), j.identifier('mcpReq')), j.identifier('log')), args));
    if (log.addContextTo) cx.at(log.addContextTo, 'handler given its context').node.params.push(j.identifier(log.context));
  }
}

/** `level, data[, logger]`: the values of the params' object literal. */
function literalArguments(params: AnyNode): AnyNode[] {
  const value = (name: string): AnyNode | undefined => params.properties.find((prop: AnyNode) => (prop.key?.name ?? prop.key?.value) === name)?.value;
  const logger = value('logger');
  return [value('level'), value('data'), ...(logger ? [logger] : [])];
}
