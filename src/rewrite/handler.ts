/**
 * A handler rewritten into phases: its signature widened, its call bound once (`resumeCall`), and its
 * body replaced by `call.run(async resumed => { if (resumed.step === ...) {...} ... })`, one block per phase.
 */
import type { ASTPath } from 'jscodeshift';
import { nameAllocator } from '../analysis/names.js';
import type { FilePlan, HandlerPlan, Range, RequestPlan } from '../plan.js';
import { boundCallMethods, stateExports } from '../stateModule.js';
import type { AnyNode, Edit, RewriteContext } from './context.js';
import { completesNormally } from './flow.js';
import { originals, Phases } from './phases.js';
import { requestSharing } from './requests.js';
import { resumePhase } from './resume.js';
import { paramsNaming, type DeclaredSchemas } from './schemas.js';
import { addContextParams, widenJsDocReturns, widenReturnType } from './signatures.js';
import { carriedType, declaredNames, loopVariableType, stepTypeName, stepUnion } from './steps.js';
import { arrowParam } from './style.js';
import { tidyInlinedBlocks } from './tidy.js';
import { columnIndent, leadingStart, MARKER_TEXT, reindent, trailingEnd } from './text.js';

/** What the first migrated handler of a file says of them all. */
export function banner(plan: FilePlan): string {
  return `// ${MARKER_TEXT} input_required phases (MCP 2026-07-28); state sealed by ${plan.stateModuleSpecifier}`;
}

/** The handler the banner goes in: the file's first, unless the file has it already (from a run that migrated another handler). */
export function banneredHandler(source: string, plan: FilePlan): HandlerPlan | undefined {
  if (source.includes(banner(plan))) return undefined;
  return [...plan.handlers].sort((a, b) => a.fn.start - b.fn.start)[0];
}

export function rewriteHandler(cx: RewriteContext, h: HandlerPlan, schemas: DeclaredSchemas, withBanner: boolean): void {
  const fnPath = cx.at(h.fn, 'handler');
  const fn = fnPath.node as AnyNode;
  rewriteSignature(cx, h, fnPath);
  const taken: string[] = [];
  cx.j(fnPath).find(cx.j.Identifier).forEach(p => void taken.push((p.node as AnyNode).name));
  const allocate = nameAllocator(taken);
  const names = { ctx: h.ctx.name, resumed: allocate('resumed'), call: allocate('call'), requests: new Map(h.suspensions.filter(s => s.requestsFirst).map(s => [s, allocate('inputRequests')])) };
  const body = fn.body;
  const sharing = requestSharing({
    inline: requestBuilder(cx, h, schemas),
    bodyNames: declaredNames(cx, body),
    localType: name => carriedType(cx, h, name) ?? loopVariableType(cx, h, name),
    allocate,
    isTs: cx.isTs,
    arrowParam: name => arrowParam(name, cx.style),
    indent: cx.unit,
  });
  const phases = new Phases(cx, h, body, names, markerEdits(cx, h, body), (r, indent) => sharing.placeholder(r, indent));
  const steps = cx.isTs ? allocate(stepTypeName(h.nameText)) : undefined;
  const { lines, callLine } = handlerLines(phases, schemas, steps, withBanner);
  const shared = sharing.resolve(lines);
  lines.splice(0, lines.length, ...shared.lines);
  lines.splice(callLine, 0, ...shared.declarations);
  fn.body = parsedBody(cx, h, tidyInlinedBlocks(`{\n${lines.join('\n')}\n}`, cx.unit, !/\.[mc]?ts$/.test(cx.plan.file)));
}

/** The context parameter, the return types widened, and a wrapper's call marked. */
function rewriteSignature(cx: RewriteContext, h: HandlerPlan, fnPath: ASTPath<AnyNode>): void {
  // A callback split inside its wrapper: the context is the registered handler's, and both return input_required.
  const hostPath = h.host ? cx.at(h.host.fn, 'handler') : fnPath;
  addContextParams(cx, hostPath.node as AnyNode, h.ctx);
  for (const p of new Set([fnPath, hostPath])) {
    widenReturnType(cx, p.node as AnyNode);
    widenJsDocReturns(cx, p);
  }
  if (!h.host) return;
  const statement = cx.statementAt(h.host.statement);
  if (!statement) throw new Error(`mrtr transform: cannot find the statement calling the wrapper of ${h.label} at offset ${h.host.statement} in ${cx.plan.file}`);
  const wrapperCall = statement.node as AnyNode;
  wrapperCall.comments = [...(wrapperCall.comments ?? []), { type: 'CommentLine', value: ` ${MARKER_TEXT} ${h.host.note}`, leading: true, trailing: false }];
}

/**
 * Markers for sites left in this handler, its capability reads and the declarations nothing reads any more:
 * they travel with the statement text into every phase.
 */
function markerEdits(cx: RewriteContext, h: HandlerPlan, body: AnyNode): Edit[] {
  return [
    ...(h.dropped ?? []).map(d => ({ range: d.whole ? droppedLines(cx.source, cx.at(d.range, 'unread declaration').node) : d.range, text: '' })),
    ...cx.plan.markers
      .filter(m => m.at >= body.start && m.at < body.end)
      .map(m => ({ range: { start: m.at, end: m.at }, text: `// ${m.text}\n${columnIndent(cx.source, m.at)}` })),
    ...(h.capabilityReads ?? []).map(r => ({ range: r.range, text: `${cx.use('state', stateExports.capabilities)}(${h.ctx.name}, ${r.serverText})` })),
  ];
}

/**
 * What goes of a declaration dropped whole where it is printed inside a statement kept as written: its
 * lines, with the comments that lead it (as TypeScript's own fix removes them), when nothing else is on them.
 */
function droppedLines(source: string, node: AnyNode): Range {
  const start = leadingStart(source, node);
  const end = trailingEnd(source, node.end);
  const lineStart = source.lastIndexOf('\n', start - 1) + 1;
  const lineEnd = /^[ \t]*\r?\n/.exec(source.slice(end));
  if (/^[ \t]*$/.test(source.slice(lineStart, start)) && lineEnd) return { start: lineStart, end: end + lineEnd[0].length };
  return { start: node.start, end };
}

/** A request as its round asks it: `inputRequired.elicit({...})`, its params moved to the line's indentation and naming its schema's const. */
function requestBuilder(cx: RewriteContext, h: HandlerPlan, schemas: DeclaredSchemas): (r: RequestPlan, indent: string) => string {
  const offsetOf = (text: string | undefined): number => (text ? cx.source.indexOf(text, h.fn.start) : h.fn.start);
  return (r, indent) => {
    if (r.builder === 'listRoots') return `${cx.use('sdk', 'inputRequired')}.listRoots()`;
    const schema = schemas.names.get(r);
    const written = schema ? paramsNaming(r.paramsText!, r.schemaText!, schema) : r.paramsText ?? '{}';
    const params = reindent(written, columnIndent(cx.source, offsetOf(r.paramsText)), indent);
    return `${cx.use('sdk', 'inputRequired')}.${r.builder}(${params})`;
  };
}

/** The handler's new body, line by line (its requests still placeholders), and where the shared builders go: before the call. */
function handlerLines(phases: Phases, schemas: DeclaredSchemas, steps: string | undefined, withBanner: boolean): { lines: string[]; callLine: number } {
  const { cx, h, body, names } = phases;
  const { resumed, call } = names;
  // The block is printed at the handler's own indentation by recast; write it relative to that.
  const bodyIndent = cx.unit;
  const phaseIndent = bodyIndent + cx.unit;
  const i1 = phaseIndent + cx.unit;
  const lines: string[] = [];
  if (withBanner) lines.push(`${bodyIndent}${banner(cx.plan)}`);
  if (steps) lines.push(...stepUnion(cx, h, steps, bodyIndent));
  const callLine = lines.length;
  lines.push(`${bodyIndent}const ${call} = ${cx.use('state', stateExports.resume)}${steps ? `<${steps}>` : ''}(${names.ctx}, ${h.nameText}, ${h.argsText});`);
  lines.push(`${bodyIndent}return ${call}.${boundCallMethods.run}(async ${arrowParam(resumed, cx.style)} => {`);
  // Where the handler could run off its end (returning undefined), each phase must too, rather
  // than fall into the next phase's test.
  const fallsOff = completesNormally(body);
  const { guard, flagSet } = phases;
  const phaseBlock = (step: string, code: string[], exit: boolean): void => {
    const declareFlag = guard && flagSet!.test(code.join('\n'))
      ? [`${i1}let ${guard.flag} = false; // true once this round suspends: a finally then waits for the round that leaves its try`]
      : [];
    lines.push(`${phaseIndent}if (${resumed}.step === ${cx.stringLiteral(step)}) {`, ...declareFlag, ...code, ...(exit || !fallsOff ? [] : [`${i1}return;`]), `${phaseIndent}}`);
  };
  phaseBlock('start', phases.gen(originals(body.body), i1, phases.markerEdits), phases.exits(originals(body.body)));
  for (const s of h.suspensions) {
    const phase = resumePhase(phases, s, i1, schemas.names);
    phaseBlock(s.step, phase.lines, phases.exits(phase.stmts));
  }
  lines.push(`${phaseIndent}throw ${call}.${boundCallMethods.unknownStep}(${resumed});`, `${bodyIndent}});`);
  return { lines, callLine };
}

/** The new body as a node, or an error that names the line of it that does not parse. */
function parsedBody(cx: RewriteContext, h: HandlerPlan, blockText: string): AnyNode {
  try {
    return cx.parseStatements(`async () => ${blockText};`)[0].expression.body;
  } catch (error) {
    const line = /\((\d+):\d+\)/.exec((error as Error).message)?.[1];
    const text = line ? `async () => ${blockText}`.split('\n')[Number(line) - 1]?.trim() : undefined;
    throw new Error(`the phases generated for ${h.label} do not parse (${(error as Error).message}${text ? `: ${text}` : ''})`);
  }
}
