/**
 * Where a rewritten request went: the entry of `inputRequests` it became (`answer: inputRequired.elicit({`)
 * in the handler's new text. A line diff cannot tell: the rewrite moves a request awaited inside a
 * statement above it, and respells it (`extra.sendRequest({ method: 'elicitation/create', params })`).
 */
import { propertyKey } from './rewrite/text.js';
import type { FilePlan, RequestBuilder } from './plan.js';
import { positionMapper, type Position } from './positions.js';

export interface RequestAnchor {
  /** Offset, in the analysed text, of the handler the request is made in. */
  handlerStart: number;
  key: string;
  builder: RequestBuilder;
}

/** The request of `plan` made by the site at `offset` of the analysed text, if the rewrite turns one into an entry there. */
export function requestAnchor(plan: FilePlan | undefined, offset: number): RequestAnchor | undefined {
  for (const handler of plan?.handlers ?? []) {
    for (const request of handler.suspensions.flatMap(s => s.requests)) {
      if (request.replace.start <= offset && offset < request.replace.end) return { handlerStart: (handler.host ?? handler).fn.start, key: request.key, builder: request.builder };
    }
  }
  return undefined;
}

/**
 * Where each anchor's entry starts in `rewritten` (at its builder, `inputRequired.elicit(`), if found:
 * the first entry of its key after its handler's start, which a line diff finds (the handler's first
 * line keeps its text but for the context parameter).
 */
export function anchorsIn(analysed: string, rewritten: string, anchors: RequestAnchor[]): (Position | undefined)[] {
  if (anchors.length === 0) return [];
  const toRewritten = positionMapper(rewritten, analysed);
  const lineStarts = [0, ...[...rewritten.matchAll(/\n/g)].map(m => m.index + 1)];
  const positionOf = (offset: number): Position => {
    let line = 0;
    while (line + 1 < lineStarts.length && lineStarts[line + 1]! <= offset) line++;
    return { line, character: offset - lineStarts[line]! };
  };
  return anchors.map(anchor => {
    const before = analysed.slice(0, anchor.handlerStart).split('\n');
    const start = toRewritten({ line: before.length - 1, character: before.at(-1)!.length });
    const key = propertyKey(anchor.key).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const entry = new RegExp(`(?<![\\w$"'])${key}: ([\\w$]+\\.${anchor.builder}\\()`, 'g');
    entry.lastIndex = lineStarts[start.line] ?? 0;
    const m = entry.exec(rewritten);
    return m ? positionOf(m.index + m[0].length - m[1]!.length) : undefined;
  });
}
