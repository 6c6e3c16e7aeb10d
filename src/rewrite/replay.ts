/**
 * The edits that make a handler resumable by replay, each a node wrapped in a call of the requestState
 * module where it stands: the registration's receiver in `resumable(...)`, a request's target in
 * `ask(...)`, journaled work in `journaled(() => ...)`, a capability read in `clientCapabilities(...)`;
 * and a catch or finally block around a question starts with `rethrowIfSuspended();`.
 * The wrapped node keeps its own text; the innermost edits are made first, so an edit inside another is
 * carried along with it.
 */
import type { Range } from '../plan.js';
import type { Node } from 'jscodeshift';
import type { ExpressionNode, RewriteContext } from './context.js';
import type { BabelExtras } from './parsers.js';

interface Wrap {
  range: Range;
  what: string;
  make: (node: ExpressionNode) => ExpressionNode;
}

export function rewriteReplay(cx: RewriteContext): void {
  const { plan, j } = cx;
  const call = (name: string, args: ExpressionNode[]) => j.callExpression(j.identifier(name), args);
  const wraps: Wrap[] = [
    ...plan.registrations.map(r => ({
      range: r.receiver,
      what: 'registration receiver',
      make: (n: ExpressionNode) => call(cx.use('state', 'resumable'), [bare(n)]),
    })),
    ...plan.asks.map(a => ({
      range: a.target,
      what: 'request target',
      make: (n: ExpressionNode) =>
        call(cx.use('state', 'ask'), [
          a.sendRequest ? j.memberExpression(bare(n), j.identifier('mcpReq')) : bare(n),
          ...(a.key ? [j.stringLiteral(a.key)] : []),
        ]),
    })),
    ...plan.journaled.map(w => ({
      range: w.range,
      what: 'journaled work',
      make: (n: ExpressionNode) => {
        const settled = w.discarded === 'settled';
        const body = w.discarded ? j.blockStatement([j.expressionStatement(settled ? j.awaitExpression(bare(n)) : bare(n))]) : bare(n);
        const work = j.arrowFunctionExpression([], body);
        work.async = w.async === true || settled;
        return call(cx.use('state', 'journaled'), [work]);
      },
    })),
  ];
  for (const read of plan.capabilityReads) {
    // (not checked with j.Expression: ast-types may not know each expression Babel gives, `satisfies` among them)
    const server = cx.at(read.server, 'capability read server').node as ExpressionNode;
    wraps.push({ range: read.call, what: 'capability read', make: () => call(cx.use('state', 'clientCapabilities'), [bare(server)]) });
  }
  // (before the wraps: the name stands outside each target)
  for (const ask of plan.asks) if (ask.sendRequest) cx.at(ask.sendRequest, 'sendRequest of a context').replace(j.identifier('send'));
  for (const wrap of wraps.sort((a, b) => a.range.end - a.range.start - (b.range.end - b.range.start))) {
    const p = cx.at(wrap.range, wrap.what);
    p.replace(wrap.make(p.node as ExpressionNode));
  }
  for (const guard of plan.guards) {
    const block = cx.at(guard.block, 'catch or finally block', j.BlockStatement).node;
    block.body.unshift(j.expressionStatement(call(cx.use('state', 'rethrowIfSuspended'), [])));
  }
}

/** A node as an argument: the parentheses it needed where it stood are not needed there. */
function bare<N extends Node>(node: N): N {
  const babel = node as N & BabelExtras;
  if (babel.extra?.parenthesized) babel.extra = { ...babel.extra, parenthesized: false };
  return node;
}
