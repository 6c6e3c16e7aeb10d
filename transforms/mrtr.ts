/**
 * jscodeshift transform: applies a file's plan (from the ts-morph analysis) to its source, preserving the
 * formatting and comments of everything it does not change. A migrated handler keeps its code; only these
 * change:
 *
 *   server.registerTool(...)                  → resumable(server).registerTool(...)
 *   await server.server.elicitInput({...})    → await ask(server.server).elicitInput({...})
 *   await api.createTrip(city)                → await journaled(() => api.createTrip(city))
 *   server.server.getClientCapabilities()     → clientCapabilities(server.server)
 *   server.sendLoggingMessage({ level, data }) → ctx.mcpReq.log(level, data)
 *
 * with the requestState module imported, the server constructed with `requestState: { verify }`, and its
 * entries moved to `serveStdio` / `createMcpHandler`.
 *
 * It needs the plan the analysis makes: run it through mcp-migrate (or pass `options.plan`).
 */
import type { API, FileInfo, Node, Options } from 'jscodeshift';
import type { FilePlan } from '../src/plan.js';
import { RewriteContext } from '../src/rewrite/context.js';
import { offsetsOf } from '../src/rewrite/parsers.js';
import { rewriteLogging } from '../src/rewrite/logging.js';
import { rewriteReplay } from '../src/rewrite/replay.js';
import { rewriteHttpEntry, rewriteStdioEntry, wireServers } from '../src/rewrite/wiring.js';

export { parserFor } from '../src/rewrite/parsers.js';

export const parser = 'ts';

export default function transformer(file: FileInfo, api: API, options: Options): string | undefined {
  const plan = options.plan as FilePlan | undefined;
  if (!plan) throw new Error('mrtr transform: no plan given; run it through mcp-migrate (or pass options.plan)');
  return applyPlan(file.source, plan, api);
}

export function applyPlan(source: string, plan: FilePlan, api: API): string {
  const cx = new RewriteContext(api.jscodeshift, source, plan);
  // Markers first: they only attach comments, so every later lookup stays valid.
  addMarkers(cx);
  rewriteReplay(cx);
  // After the replay's wraps: a log call's arguments are moved into its new call, where their old paths no longer lead.
  rewriteLogging(cx);
  wireServers(cx);
  for (const entry of plan.stdio) rewriteStdioEntry(cx, entry);
  for (const entry of plan.http) rewriteHttpEntry(cx, entry);
  return cx.print();
}

function addMarkers(cx: RewriteContext): void {
  for (const marker of cx.plan.markers) {
    const p = cx.statementAt(marker.at);
    if (!p) continue;
    const node = p.node;
    node.comments = [...(node.comments ?? []), cx.j.commentLine(` ${marker.text}`, true, false)];
    keepBodyOnItsLine(cx, node);
  }
}

/**
 * A statement given a comment is printed anew, and recast prints a braceless body on a line of its own
 * (`if (ok)\n  console.error('on');`): where the statement was written on one line, it is put back there.
 */
function keepBodyOnItsLine(cx: RewriteContext, node: Node): void {
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
  cx.commentEdits.push({ from: new RegExp(`${escape(head)}\\n[ \\t]*${escape(tail)}`), to: written });
}
