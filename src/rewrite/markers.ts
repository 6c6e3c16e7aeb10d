/**
 * The markers of the sites the analysis left (`// mcp-migrate: ...`), each a comment above its statement. They
 * are added before any other edit: a comment moves no node, so every later lookup of the plan's ranges holds.
 */
import type { Node } from 'jscodeshift';
import type { RewriteContext } from './context.js';
import { offsetsOf } from './parsers.js';

export function addMarkers(cx: RewriteContext): void {
  for (const marker of cx.plan.markers) {
    const p = cx.statementAt(marker.at);
    if (!p) continue;
    const node = p.node;
    node.comments = [...(node.comments ?? []), cx.j.commentLine(` ${marker.text}`, true, false)];
    keepBodyOnItsLine(cx, node, marker.text);
  }
}

/**
 * A statement given a comment is printed anew, and recast prints a braceless body on a line of its own
 * (`if (ok)\n  console.error('on');`): where the statement was written on one line, it is put back there, in
 * the printed text right under its marker (so no other statement printed alike is touched).
 */
function keepBodyOnItsLine(cx: RewriteContext, node: Node, markerText: string): void {
  const { j } = cx;
  const loop = j.WhileStatement.check(node) || j.ForStatement.check(node) || j.ForInStatement.check(node) || j.ForOfStatement.check(node);
  const body: Node | undefined = j.IfStatement.check(node) ? (node.alternate ? undefined : node.consequent) : loop ? node.body : undefined;
  const at = offsetsOf(node);
  const bodyAt = body && offsetsOf(body);
  if (!body || body.type === 'BlockStatement' || !at || !bodyAt) return;
  const written = cx.source.slice(at.start, at.end);
  if (written.includes('\n')) return;
  const head = cx.source.slice(at.start, bodyAt.start).trimEnd();
  const tail = cx.source.slice(bodyAt.start, at.end);
  const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  cx.lineJoins.push({ printed: new RegExp(`(// ${escape(markerText)}\\n[ \\t]*)${escape(head)}\\n[ \\t]*${escape(tail)}`, 'g'), written });
}
