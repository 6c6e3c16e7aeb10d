/**
 * List changes told from a server instance where the run moves an HTTP entry to `createMcpHandler`. There a
 * 2026-07-28 client learns of them on a `subscriptions/listen` stream, which the handler feeds from its own
 * bus (`handler.notify.toolsChanged()`): `server.sendToolListChanged()`, and the list_changed a registration
 * made while the server serves sends, reach no such stream (measured with the SDK's client, see
 * test/list-changed.test.ts), so a listening client is never told. Under serveStdio the instance's own
 * notification reaches it, and a 2025-era session gets it as before: only runs with an HTTP entry are marked.
 */
import { Node, SyntaxKind, type CallExpression, type SourceFile } from 'ts-morph';
import { LIST_CHANGED_CAUSE, type FoundCause } from '../tables/causes.js';
import { serverKindOf, unwrap } from './mcpSymbols.js';
import { enclosingFunction, type FunctionLike } from './functions.js';
import { descendantsOfKind } from './descendants.js';

/** The notifier's method for each list: what `createMcpHandler(...)`'s `notify` publishes. */
const NOTIFIERS: Record<string, string> = {
  sendToolListChanged: 'toolsChanged',
  sendPromptListChanged: 'promptsChanged',
  sendResourceListChanged: 'resourcesChanged',
  registerTool: 'toolsChanged',
  tool: 'toolsChanged',
  registerPrompt: 'promptsChanged',
  prompt: 'promptsChanged',
  registerResource: 'resourcesChanged',
  resource: 'resourcesChanged',
};

const SENDS = /^send(Tool|Prompt|Resource)ListChanged$/;

export interface ListChangeFinding {
  call: CallExpression;
  reason: string;
  cause: FoundCause;
  handler: string;
}

/**
 * The list changes of a file told from a server instance: every `send…ListChanged()`, and the registrations made
 * in a function a handler runs (`handlerOf(fn)`: its label, undefined when none does).
 */
export function listChanges(sf: SourceFile, handlerOf: (fn: FunctionLike) => string | undefined): ListChangeFinding[] {
  if (!/ListChanged|register|\.tool\(|\.prompt\(|\.resource\(/.test(sf.getFullText())) return [];
  const found: ListChangeFinding[] = [];
  for (const call of descendantsOfKind(sf, SyntaxKind.CallExpression)) {
    const callee = unwrap(call.getExpression());
    if (!Node.isPropertyAccessExpression(callee) || !(callee.getName() in NOTIFIERS) || !serverKindOf(callee.getExpression())) continue;
    const fn = enclosingFunction(call);
    const handler = fn ? handlerOf(fn) : undefined;
    const sends = SENDS.test(callee.getName());
    if (!sends && handler === undefined) continue;
    found.push({ call, ...reasonFor(callee.getText(), NOTIFIERS[callee.getName()]!, sends), handler: handler ?? 'list change' });
  }
  return found;
}

function reasonFor(callee: string, notifier: string, sends: boolean): { reason: string; cause: FoundCause } {
  const what = sends
    ? `${callee}() tells the clients of this server instance that its list changed`
    : `${callee}(...) while a request is served tells the clients of this server instance that its list changed`;
  const reason = `${what}, but the HTTP entry now serves 2026-07-28 requests through createMcpHandler, whose subscriptions/listen streams such a notification never reaches: a listening client is not told. Keep what createMcpHandler(...) returns where the entry makes it and call its notify.${notifier}() here as well (this call still tells 2025-era sessions)`;
  return { reason, cause: LIST_CHANGED_CAUSE };
}
