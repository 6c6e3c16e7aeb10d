/**
 * jscodeshift transform: applies a file's plan (from the ts-morph analysis) to its source,
 * preserving the formatting and comments of every statement it does not have to change.
 *
 * A handler with suspension points binds its call once and runs its phases through it:
 *
 *   type GreetStep = { step: 'awaiting-answer'; live: string };
 *   const call = resumeCall<GreetStep>(ctx, NAME, ARGS);
 *   return call.run(async resumed => {
 *     if (resumed.step === 'start') { ...code up to the first await...; return call.suspend({ step: 'awaiting-answer', live }, { answer: inputRequired.elicit({...}) }); }
 *     if (resumed.step === 'awaiting-answer') { const live = resumed.live; const answer = elicitResult(ctx, 'answer'); ...rest... }
 *     throw call.unknownStep(resumed);
 *   });
 *
 * The steps are named by what each round waits for and carry the locals the rest needs, typed (in
 * TypeScript) as the handler's own union of them, declared in its body. `run` goes on into the next
 * phase in the same request where that request already carries the round's answers, and otherwise
 * returns the round as input_required with its state sealed.
 *
 * Run standalone (`jscodeshift -t dist/transforms/mrtr.js src`) it plans the file itself.
 */
import type { API, FileInfo, Options } from 'jscodeshift';
import type { FilePlan } from '../src/plan.js';
import { RewriteContext, type AnyNode } from '../src/rewrite/context.js';
import { banneredHandler, rewriteHandler } from '../src/rewrite/handler.js';
import { declareSchemas, schemaSites } from '../src/rewrite/schemaDeclarations.js';
import { declaredSchemas } from '../src/rewrite/schemas.js';
import { addContextParams, widenFunctionType, widenReturnType } from '../src/rewrite/signatures.js';
import { rewriteHttpEntry, rewriteStdioEntry, wireServers } from '../src/rewrite/wiring.js';

export { propertyKey } from '../src/rewrite/text.js';
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
  rewriteDelegation(cx);
  const bannered = banneredHandler(source, plan);
  // Read before any handler is rewritten: a const's name must be none of the file's.
  const schemas = declaredSchemas(schemaSites(source, plan), cx.root.find(cx.j.Identifier).nodes().map((n: AnyNode) => n.name));
  for (const handler of [...plan.handlers].sort((a, b) => b.fn.start - a.fn.start)) {
    rewriteHandler(cx, handler, schemas, handler === bannered);
  }
  declareSchemas(cx, schemas.declarations);
  wireServers(cx);
  for (const entry of plan.stdio) rewriteStdioEntry(cx, entry);
  for (const entry of plan.http) rewriteHttpEntry(cx, entry);
  removeUnused(cx);
  return cx.print();
}

function addMarkers(cx: RewriteContext): void {
  for (const marker of cx.plan.markers) {
    const p = cx.statementAt(marker.at);
    if (!p) continue;
    const node = p.node as AnyNode;
    node.comments = [...(node.comments ?? []), { type: 'CommentLine', value: ` ${marker.text}`, leading: true, trailing: false }];
  }
}

/** Top-level code nothing uses once the file is rewritten (a wrapper whose calls were unwrapped), with the comments that lead it. */
function removeUnused(cx: RewriteContext): void {
  const starts = new Set((cx.plan.removed?.statements ?? []).map(r => r.start));
  if (starts.size === 0) return;
  const program = cx.programNode();
  program.body = program.body.filter((st: AnyNode) => !starts.has(st.start));
}

/** A handler that hands its call on passes its context to the delegates migrated in its place. */
function rewriteDelegation(cx: RewriteContext): void {
  const { plan } = cx;
  for (const d of plan.delegating ?? []) {
    addContextParams(cx, cx.at(d.fn, 'delegating handler').node, d.ctx);
    (cx.at(d.call, 'delegated call').node as AnyNode).arguments.push(cx.j.identifier(d.ctx.name));
  }
  for (const s of plan.delegateSignatures ?? []) {
    const fn = cx.at(s.fn, 'delegate declaration').node;
    addContextParams(cx, fn, s.ctx);
    widenReturnType(cx, fn);
  }
  // The type of a wrapper's parameter that handlers migrated elsewhere are registered through.
  for (const r of plan.widenedCallbackTypes ?? []) widenFunctionType(cx, cx.at(r, 'callback type').node as AnyNode);
}
