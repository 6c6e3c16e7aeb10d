/**
 * The requests of the run's files (src/analysis/sites.ts), each followed up to the handlers that may run it
 * (src/find/reach.ts): asked through the requestState module where a tools/call, prompts/get or resources/read
 * handler may run it, else marked with why (./unreached.ts). A framework's own request APIs are marked with
 * what the framework offers instead.
 */
import { Node, SyntaxKind, type CallExpression } from 'ts-morph';
import { rangeOf } from '../../plan.js';
import type { SiteReport, SiteShape } from '../../report.js';
import type { HandlerReached, NotAHandler, Reacher } from '../../find/reach.js';
import { analysing, usersOwn, type AnalysisOptions, type AnalysisRun } from '../analysisRun.js';
import { claimedByFramework, frameworkRequests } from '../frameworks.js';
import { unwrap } from '../mcpSymbols.js';
import { describeNonHandler } from '../nonHandlers.js';
import { callText, location, type Recorder } from '../recorder.js';
import { findSites, isHandlerExtra, type Site } from '../sites.js';
import { markOtherCaller, markUnreached } from './unreached.js';

/** Each file's requests, and its framework's request APIs. */
export function planRequests(run: AnalysisRun): void {
  const { options, r } = run;
  for (const sf of usersOwn(options.files))
    analysing(sf, r, () => {
      const viaFramework = options.onlyHandlerAt ? [] : frameworkRequests(sf);
      for (const request of viaFramework) {
        r.site(request.call, {
          kind: request.method.kind,
          call: callText(request.call),
          outcome: 'marked',
          reason: request.reason,
          handler: request.framework.name,
          shape: 'other',
          cause: request.cause,
        });
      }
      for (const site of findSites(sf).filter(s => !claimedByFramework(s.node, viaFramework))) {
        const reached = planSite(site, run.reacher, r, options);
        if (reached.length > 0) run.asks.add(site.node);
        for (const handler of reached) run.handlers.set(handler.registration, handler);
      }
    });
}

/** A request recognised but never rewritten (of no 2026-07-28 form, or a thrown URL elicitation): marked where it stands. Whether it is one. */
function markedAsWritten(site: Site, reacher: Reacher, r: Recorder, shape: SiteReport['shape']): boolean {
  const kind = site.kind;
  if (site.unsupported) {
    const left = site.unsupported.servesLegacy ? '(2025-era clients only)' : 'and fails on SDK 2.x for every client';
    r.site(site.node, {
      kind,
      call: callText(site.node),
      outcome: 'marked',
      reason: `this ${kind === 'request' ? '' : `${kind} `}request is left as it is ${left}: ${site.unsupported.reason}`,
      shape,
      cause: { id: site.unsupported.causeId, text: site.unsupported.reason },
    });
    return true;
  }
  if (site.urlError) {
    const reason =
      "throw new UrlElicitationRequiredError(...) ends the call with an error the client answers by opening the URL and calling again, which MCP 2026-07-28 does not have: ask with elicitInput({ mode: 'url', message, url, elicitationId }) where the handler can wait for the answer, or migrate by hand";
    const handler = site.fn ? reacher.of(site.fn).handlers[0]?.label : undefined;
    r.site(site.node, {
      kind,
      call: callText(site.node),
      outcome: 'marked',
      reason,
      handler,
      shape,
      cause: { id: 'url-elicitation-error', text: 'URL elicitation thrown as UrlElicitationRequiredError' },
    });
    return true;
  }
  return false;
}

/**
 * One request: asked through the requestState module where a handler may run it (and that handler's
 * registration made resumable), else marked with why. Returns the handlers it is asked in.
 */
function planSite(site: Site, reacher: Reacher, r: Recorder, options: AnalysisOptions): HandlerReached[] {
  const kind = site.kind;
  const shape = shapeOf(site);
  if (markedAsWritten(site, reacher, r, shape)) return [];
  const target = askTargetOf(site);
  const reach = site.handedOn
    ? reacher.ofValue(site.node)
    : site.fn
      ? reacher.of(site.fn)
      : { handlers: [], others: [{ ...describeNonHandler(undefined, site.node), at: site.node } as NotAHandler] };
  const only = options.onlyHandlerAt;
  const handlers = only
    ? reach.handlers.filter(
        h =>
          h.registration.getSourceFile().getFilePath() === only.file &&
          h.registration.getStart() <= only.offset &&
          only.offset <= h.registration.getEnd(),
      )
    : reach.handlers;
  if (only && handlers.length === 0) {
    const reason = 'not selected: another handler was asked for';
    r.sites.push({
      ...location(site.node, r),
      kind,
      call: callText(site.node),
      outcome: 'skipped',
      reason,
      handler: reach.handlers[0]?.label,
      cause: reason,
      causeId: 'not-selected',
    });
    return [];
  }
  if (site.handedOn && reach.handlers.length === 0 && reach.others.length === 0) {
    // Exported, or kept where nothing of the project runs it: there is no caller to ask for.
    r.note(
      site.node,
      `${callText(site.node)} hands on the server's ${site.kind} request where nothing in the project runs it: code outside the project that calls it asks as before, which only a 2025-era client answers`,
    );
    return [];
  }
  if (handlers.length === 0 || !target) {
    markUnreached(site, reach.others, r, shape);
    return [];
  }
  const plan = r.planFor(target.getSourceFile());
  const key = target === askTargetOf({ ...site, target: undefined }) ? answerName(site.node) : undefined;
  const sendRequest = contextSendRequest(site.node, target);
  if (!plan.asks.some(a => a.target.start === target.getStart()))
    plan.asks.push({ target: rangeOf(target), ...(key ? { key } : {}), ...(sendRequest ? { sendRequest: rangeOf(sendRequest) } : {}) });
  const labels = handlers.map(h => h.label);
  const shown = labels.length > 3 ? `${labels.slice(0, 3).join(', ')} and ${labels.length - 3} more` : labels.join(', ');
  r.site(site.node, {
    kind,
    call: callText(site.node),
    outcome: 'rewritten',
    reason: `asked through the requestState module while ${shown} ${labels.length === 1 ? 'runs' : 'run'}`,
    handler: labels[0],
    shape,
  });
  for (const other of reach.others) markOtherCaller(site, other, r);
  return handlers;
}

/**
 * The name `sendRequest` of `extra.sendRequest(...)` where `extra` is a handler's context the official codemod
 * did not move (a table entry's parameter typed by an alias of the context): SDK 2.x's context sends through
 * `extra.mcpReq.send(...)`.
 */
function contextSendRequest(call: Node, target: Node): Node | undefined {
  if (!Node.isCallExpression(call)) return undefined;
  const callee = unwrap(call.getExpression());
  if (!Node.isPropertyAccessExpression(callee) || callee.getName() !== 'sendRequest') return undefined;
  const receiver = unwrap(callee.getExpression());
  return receiver.getStart() === target.getStart() && receiver.getEnd() === target.getEnd() && isHandlerExtra(target)
    ? callee.getNameNode()
    : undefined;
}

/** The expression a request is made on, which becomes `ask(...)`: the server, the context, or the request function. */
function askTargetOf(site: Site): Node | undefined {
  if (site.target) return site.target;
  const node = site.node;
  if (Node.isCallExpression(node)) {
    const callee = unwrap(node.getExpression());
    if (Node.isPropertyAccessExpression(callee) || Node.isElementAccessExpression(callee)) return callee.getExpression();
    // `sendRequest(...)` destructured from the handler's context: the function itself.
    return Node.isIdentifier(callee) ? callee : undefined;
  }
  if (Node.isPropertyAccessExpression(node) || Node.isElementAccessExpression(node)) return node.getExpression();
  return undefined;
}

/**
 * The name the handler binds a request's answer to: `const user_name = await ...`, `answer = await ...`,
 * `{ name: await ... }`, or an element of `const [a, b] = await Promise.all([...])`. The key the question is
 * asked under, as a hand-written handler names its input requests.
 */
function answerName(request: Node): string | undefined {
  const value = outerExpression(request);
  const parent = value.getParent();
  if (!parent) return undefined;
  if (Node.isVariableDeclaration(parent) && parent.getInitializer() === value)
    return Node.isIdentifier(parent.getNameNode()) ? parent.getName() : undefined;
  if (Node.isBinaryExpression(parent) && parent.getRight() === value && parent.getOperatorToken().getKind() === SyntaxKind.EqualsToken) {
    const left = unwrap(parent.getLeft());
    return Node.isIdentifier(left) ? left.getText() : Node.isPropertyAccessExpression(left) ? left.getName() : undefined;
  }
  if (Node.isPropertyAssignment(parent) && parent.getInitializer() === value && Node.isIdentifier(parent.getNameNode()))
    return parent.getName();
  if (Node.isArrayLiteralExpression(parent)) {
    const all = outerExpression(parent).getParent();
    const holder =
      all && Node.isCallExpression(all) && /^Promise\.(all|allSettled)$/.test(all.getExpression().getText())
        ? outerExpression(all).getParent()
        : undefined;
    const pattern = holder && Node.isVariableDeclaration(holder) ? holder.getNameNode() : undefined;
    const element =
      pattern && Node.isArrayBindingPattern(pattern) ? pattern.getElements()[parent.getElements().indexOf(value as never)] : undefined;
    return element && Node.isBindingElement(element) && Node.isIdentifier(element.getNameNode()) ? element.getName() : undefined;
  }
  return undefined;
}

/** The expression a value stands in: through `await`, parentheses, casts and `!`. */
function outerExpression(node: Node): Node {
  let value = node;
  for (
    let parent = value.getParent();
    parent &&
    (Node.isAwaitExpression(parent) ||
      Node.isParenthesizedExpression(parent) ||
      Node.isAsExpression(parent) ||
      Node.isSatisfiesExpression(parent) ||
      Node.isNonNullExpression(parent));
    parent = value.getParent()
  )
    value = parent;
  return value;
}

/** The innermost control-flow construct between a site and its function's body; `helper` when that function is not the handler. */
function shapeOf(site: Site): SiteShape {
  const node = site.node;
  const parent = node.getParent();
  if (parent && Node.isArrayLiteralExpression(parent) && /^Promise\.all/.test(parent.getParent()?.getText() ?? '')) return 'Promise.all';
  for (let n = node.getParent(); n && n !== site.fn; n = n.getParent()) {
    if (Node.isIterationStatement(n)) return 'loop';
    if (Node.isTryStatement(n)) return 'try';
    if (Node.isCaseClause(n) || Node.isDefaultClause(n)) return 'switch';
    if (Node.isIfStatement(n)) return 'if';
  }
  const fn = site.fn;
  if (
    fn &&
    (Node.isArrowFunction(fn) || Node.isFunctionExpression(fn)) &&
    Node.isCallExpression(fn.getParent()) &&
    !/^(registerTool|registerPrompt|registerResource|setRequestHandler)$/.test(calleeName(fn.getParent() as CallExpression))
  )
    return 'callback';
  return 'straight';
}

function calleeName(call: CallExpression): string {
  const callee = unwrap(call.getExpression());
  return Node.isPropertyAccessExpression(callee) ? callee.getName() : callee.getText();
}
