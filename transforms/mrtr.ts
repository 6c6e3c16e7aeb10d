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
import type { API, ASTPath, FileInfo, Options } from 'jscodeshift';
import type { CarriedLocal, FilePlan, HandlerPlan, HttpEntryPlan, Range, ServerWiringPlan, RequestPlan, ResponseReader, SuspensionPlan } from '../src/plan.js';
import { nameAllocator } from '../src/analysis/names.js';
import { boundCallMethods, stateExports } from '../src/stateModule.js';

/** What starts every comment the rewrite writes (src/analysis/index.ts MARKER_PREFIX). */
const MARKER_TEXT = 'mcp-migrate:';
import { ts } from 'ts-morph';
import { editImports, isRequire, type ImportChanges } from '../src/rewrite/imports.js';
import { arrowParam, codeStyle, MAX_LINE, quoted, type CodeStyle } from '../src/rewrite/style.js';
import { requestSharing } from '../src/rewrite/requests.js';
import { canDeclareApart, declaredSchemas, paramsNaming, type SchemaDeclaration, type SchemaSite } from '../src/rewrite/schemas.js';

/* eslint-disable @typescript-eslint/no-explicit-any */
type AnyNode = any;

export const parser = 'ts';

/** Where the Node.js adapters of the v2 SDK live (`toNodeHandler`, `toWebRequest`). */
const NODE_MODULE = '@modelcontextprotocol/node';

export function parserFor(file: string): 'ts' | 'tsx' | 'babel' {
  if (/\.tsx$/.test(file)) return 'tsx';
  if (/\.[mc]?tsx?$/.test(file)) return 'ts';
  return 'tsx';
}

export default function transformer(file: FileInfo, api: API, options: Options): string | undefined {
  const plan = options.plan as FilePlan | undefined;
  if (!plan) throw new Error('mrtr transform: no plan given; run it through mcp-migrate (or pass options.plan)');
  return applyPlan(file.source, plan, api);
}

export function applyPlan(source: string, plan: FilePlan, api: API): string {
  const j = api.jscodeshift;
  // recast counts a tab as tabWidth columns and derives node offsets from columns: with the default of 4, every
  // offset after a tab is off (the plan's offsets are characters). One column per tab keeps them characters.
  const parse = (text: string) => j(text, { tabWidth: 1 });
  const root = parse(source);
  const style = codeStyle(source);
  const unit = style.unit;
  const isTs = /\.[mc]?tsx?$/.test(plan.file);
  const quote = style.quote;

  const byRange = new Map<string, ASTPath<AnyNode>>();
  const byStart = new Map<number, ASTPath<AnyNode>[]>();
  root.find(j.Node).forEach((p: ASTPath<AnyNode>) => {
    const n = p.node as AnyNode;
    if (typeof n.start !== 'number') return;
    byRange.set(`${n.start}:${n.end}`, p);
    byStart.set(n.start, [...(byStart.get(n.start) ?? []), p]);
  });
  const at = (r: Range, what: string): ASTPath => {
    const p = byRange.get(`${r.start}:${r.end}`);
    if (!p) throw new Error(`mrtr transform: cannot find the ${what} at offset ${r.start} in ${plan.file}`);
    return p;
  };
  const statementAt = (start: number): ASTPath | undefined => byStart.get(start)?.find(p => j.Statement.check(p.node) && !j.BlockStatement.check(p.node));

  const parseStatements = (text: string): AnyNode[] => parse(text).find(j.Program).get().node.body;
  // As the right side of an assignment, not parenthesised: an object literal is not read as a block, and the
  // node is the snippet's own, so recast prints it as written instead of reprinting it.
  const parseExpression = (text: string): AnyNode => parseStatements(`mcpMigrateExpression = ${text};`)[0].expression.right;
  // `super(...)` parses only in a derived class's constructor: the wiring of a subclass of the SDK's server.
  const parseSuperCall = (text: string): AnyNode => parseStatements(`class M extends B { constructor() { ${text}; } }`)[0].body.body[0].body.body[0].expression;

  const usedBefore = identifierCounts();
  const commentEdits: { from: string; to: string }[] = [];
  const modules = { sdk: plan.sdkModule, stdio: `${plan.sdkModule}/stdio`, node: NODE_MODULE, state: plan.stateModuleSpecifier } as const;
  /** Per module: export name → local name. */
  const needed = { sdk: new Map<string, string>(), state: new Map<string, string>(), stdio: new Map<string, string>(), node: new Map<string, string>() };
  /** Records an import the rewrite needs and returns its local name, aliased where the file already uses the name. */
  const neededTypes = new Map<string, string>();
  const useType = (name: string): string => {
    const local = importedFrom(modules.sdk, name) ?? ((usedBefore.get(name) ?? 0) > 0 ? `Mcp${name}` : name);
    neededTypes.set(name, local);
    return local;
  };
  const use = (from: keyof typeof needed, name: string): string => {
    const known = needed[from].get(name);
    if (known) return known;
    const imported = importedFrom(modules[from], name);
    const local = imported ?? ((usedBefore.get(name) ?? 0) > 0 ? `mcp${name[0]!.toUpperCase()}${name.slice(1)}` : name);
    needed[from].set(name, local);
    return local;
  };

  // Markers first: they only attach comments, so every later lookup stays valid.
  for (const marker of plan.markers) {
    const p = statementAt(marker.at);
    if (!p) continue;
    const node = p.node as AnyNode;
    node.comments = [...(node.comments ?? []), { type: 'CommentLine', value: ` ${marker.text}`, leading: true, trailing: false }];
  }

  // A handler that hands its call on passes its context to the delegates migrated in its place.
  for (const d of plan.delegating ?? []) {
    addContextParams(at(d.fn, 'delegating handler').node, d.ctx);
    (at(d.call, 'delegated call').node as AnyNode).arguments.push(j.identifier(d.ctx.name));
  }
  for (const s of plan.delegateSignatures ?? []) {
    const fn = at(s.fn, 'delegate declaration').node;
    addContextParams(fn, s.ctx);
    widenReturnType(fn);
  }
  // The type of a wrapper's parameter that handlers migrated elsewhere are registered through.
  for (const r of plan.widenedCallbackTypes ?? []) widenFunctionType(at(r, 'callback type').node as AnyNode);

  const bannered = banneredHandler(source, plan);
  // Read before any handler is rewritten: a const's name must be none of the file's.
  const schemas = declaredSchemas(schemaSites(source, plan), root.find(j.Identifier).nodes().map((n: AnyNode) => n.name));
  for (const handler of [...plan.handlers].sort((a, b) => b.fn.start - a.fn.start)) {
    rewriteHandler(handler);
  }
  declareSchemas(schemas.declarations);

  for (const server of plan.servers) {
    const p = at(server.construct, 'server construction');
    const wired = wiredConstruction(source, server, use('state', stateExports.verify), style);
    p.replace(/^super\s*\(/.test(wired) ? parseSuperCall(wired) : parseExpression(wired));
  }

  for (const entry of plan.stdio) {
    const p = at(entry.call, 'stdio connect call');
    const options = [
      entry.transportText === undefined ? '' : entry.transportText === 'transport' ? 'transport' : `transport: ${entry.transportText}`,
      entry.onerrorText === undefined ? '' : `onerror: ${entry.onerrorText}`,
    ].filter(Boolean);
    const replacement = parseExpression(`${use('stdio', 'serveStdio')}(() => ${entry.serverText}${options.length > 0 ? `, { ${options.join(', ')} }` : ''})`);
    const parent = p.parent?.node as AnyNode;
    if (parent && parent.type === 'AwaitExpression') p.parent.replace(replacement);
    else p.replace(replacement);
    if (entry.removeDeclaration) at(entry.removeDeclaration, 'stdio transport declaration').prune();
  }

  for (const entry of plan.http) rewriteHttpEntry(entry);

  const importChanges = { add: importsToAdd(), remove: unusedMcpImports(), unwrapped: unusedWrappers() };
  let output = root.toSource({ quote, reuseWhitespace: true, tabWidth: unit === '\t' ? 1 : unit.length, useTabs: unit === '\t' });
  output = editImports(output, parse(output).find(j.Program).get().node.body, importChanges, style);
  // Comments recast keeps verbatim: edited as text, since a reprinted comment is re-indented.
  for (const { from, to } of commentEdits) output = output.replace(from, () => to);
  return output;

  /**
   * The handler, declared once outside the request handler, then either called in place of the
   * stateless server and transport or put in front of the session wiring for 2026-07-28 requests.
   */
  function rewriteHttpEntry(entry: HttpEntryPlan): void {
    const outer = statementAt(entry.declareBefore);
    if (!outer) throw new Error(`mrtr transform: cannot find the statement holding the request handler at offset ${entry.declareBefore} in ${plan.file}`);
    const options = entry.mode === 'sessionful' ? `, { legacy: ${stringLiteral('reject')} }` : '';
    const declaration = parseStatements(`const ${entry.name} = ${use('node', 'toNodeHandler')}(${use('sdk', 'createMcpHandler')}(() => ${entry.factoryText}${options}));`)[0];
    const [req, res, body] = entry.argsText;
    if (entry.mode === 'stateless') {
      const call = parseStatements(`await ${entry.name}(${entry.argsText.join(', ')});`)[0];
      const replaced = at(entry.replace!, 'handleRequest statement');
      call.comments = (replaced.node as AnyNode).comments;
      replaced.replace(call);
      for (const r of entry.remove ?? []) at(r, 'statement of the stateless transport').prune();
    } else {
      const route = statementAt(entry.routeBefore!);
      if (!route) throw new Error(`mrtr transform: cannot find the statement to route before at offset ${entry.routeBefore} in ${plan.file}`);
      const [routing] = parseStatements(
        [
          `if (!(await ${use('sdk', 'isLegacyRequest')}(await ${use('node', 'toWebRequest')}(${req}, ${body})))) {`,
          `  await ${entry.name}(${req}, ${res}, ${body});`,
          '  return;',
          '}'
        ].join('\n')
      );
      routing.comments = [{ type: 'CommentLine', value: ' 2026-07-28 requests are served per request; 2025-era requests keep the session wiring below.', leading: true, trailing: false }];
      route.insertBefore(routing);
    }
    outer.insertBefore(declaration);
  }

  /** Each schema declared apart, before the top-level statement holding the first handler that asks it. */
  function declareSchemas(declarations: SchemaDeclaration[]): void {
    if (declarations.length === 0) return;
    const end = style.semicolons ? ';' : '';
    const type = `${isTs ? useType('ElicitRequestFormParams') : `import('${modules.sdk}').ElicitRequestFormParams`}['requestedSchema']`;
    const body = programNode().body as AnyNode[];
    const byHolder = new Map<AnyNode, string[]>();
    for (const d of declarations) {
      const holder = schemaHolder(body, d.before);
      if (!holder) throw new Error(`mrtr transform: cannot find the statement holding the handler at offset ${d.before} in ${plan.file}`);
      // Typed: out of the request, the literal's `type: 'object'` would widen to a string the request's type refuses.
      const text = isTs ? `const ${d.name}: ${type} = ${d.text}${end}` : `/** @type {${type}} */\nconst ${d.name} = ${d.text}${end}`;
      byHolder.set(holder, [...(byHolder.get(holder) ?? []), text]);
    }
    // Parsed together, the consts before one statement keep a line each.
    for (const [holder, texts] of byHolder) body.splice(body.indexOf(holder), 0, ...parseStatements(texts.join('\n')));
  }

  function stringLiteral(value: string): string {
    return quoted(value, style);
  }

  /** Locals of MCP imports the rewrite made unused (a request schema, the stdio transport): they go. */
  function unusedMcpImports(): Set<string> {
    const after = identifierCounts();
    const unused = new Set<string>();
    root.find(j.ImportDeclaration).forEach(p => {
      const decl = p.node as AnyNode;
      if (!/^@modelcontextprotocol\//.test(decl.source.value)) return;
      for (const sp of decl.specifiers) {
        const local = sp.local?.name;
        if (local && (usedBefore.get(local) ?? 0) > 0 && (after.get(local) ?? 0) === 0) unused.add(local);
      }
    });
    return unused;
  }

  /** The wrappers of requests the rewrite unwrapped that nothing uses any more: their imports go. */
  function unusedWrappers(): Set<string> {
    const wrappers = plan.handlers.flatMap(h => h.suspensions.flatMap(s => s.requests.flatMap(r => (r.unwrapped ? [r.unwrapped.wrapper] : []))));
    if (wrappers.length === 0) return new Set();
    const after = identifierCounts();
    return new Set(wrappers.filter(name => (usedBefore.get(name) ?? 0) > 0 && (after.get(name) ?? 0) === 0));
  }

  function identifierCounts(): Map<string, number> {
    const counts = new Map<string, number>();
    root.find(j.Identifier).forEach(p => {
      if (j(p).closest(j.ImportDeclaration).size() > 0) return;
      const name = (p.node as AnyNode).name;
      counts.set(name, (counts.get(name) ?? 0) + 1);
    });
    return counts;
  }

  function rewriteHandler(h: HandlerPlan): void {
    const fnPath = at(h.fn, 'handler');
    const fn = fnPath.node as AnyNode;
    // A callback split inside its wrapper: the context is the registered handler's, and both return input_required.
    const hostPath = h.host ? at(h.host.fn, 'handler') : fnPath;
    addContextParams(hostPath.node as AnyNode, h.ctx);
    for (const p of new Set([fnPath, hostPath])) {
      widenReturnType(p.node as AnyNode);
      widenJsDocReturns(p);
    }
    if (h.host) {
      const statement = statementAt(h.host.statement);
      if (!statement) throw new Error(`mrtr transform: cannot find the statement calling the wrapper of ${h.label} at offset ${h.host.statement} in ${plan.file}`);
      const wrapperCall = statement.node as AnyNode;
      wrapperCall.comments = [...(wrapperCall.comments ?? []), { type: 'CommentLine', value: ` ${MARKER_TEXT} ${h.host.note}`, leading: true, trailing: false }];
    }
    const ctx = h.ctx.name;
    const taken: string[] = [];
    j(fnPath).find(j.Identifier).forEach(p => void taken.push((p.node as AnyNode).name));
    const allocate = nameAllocator(taken);
    const resumed = allocate('resumed');
    const call = allocate('call');

    const body = fn.body;
    // Markers for sites left in this handler, and its capability reads, travel with the statement text into every phase.
    const markerEdits = [
      ...plan.markers
        .filter(m => m.at >= body.start && m.at < body.end)
        .map(m => ({ range: { start: m.at, end: m.at }, text: `// ${m.text}\n${columnIndent(source, m.at)}` })),
      ...(h.capabilityReads ?? []).map(r => ({ range: r.range, text: `${use('state', stateExports.capabilities)}(${ctx}, ${r.serverText})` })),
    ];
    const groupByFirst = new Map<number, SuspensionPlan>();
    for (const s of h.suspensions) groupByFirst.set(s.statements[0]!.start, s);
    const containsSuspension = (node: AnyNode): boolean =>
      typeof node.start === 'number' && h.suspensions.some(s => s.statements[0]!.start >= node.start && s.statements[0]!.end <= node.end);

    const builderCall = (r: RequestPlan, indent: string): string => {
      if (r.builder === 'listRoots') return `${use('sdk', 'inputRequired')}.listRoots()`;
      const schema = schemas.names.get(r);
      const written = schema ? paramsNaming(r.paramsText!, r.schemaText!, schema) : r.paramsText ?? '{}';
      const params = reindent(written, columnIndent(source, offsetOf(r.paramsText)), indent);
      return `${use('sdk', 'inputRequired')}.${r.builder}(${params})`;
    };
    const offsetOf = (text: string | undefined): number => (text ? source.indexOf(text, h.fn.start) : h.fn.start);
    const sharing = requestSharing({
      inline: builderCall,
      bodyNames: declaredNames(body),
      localType: name => carriedType(h, name) ?? loopVariableType(h, name),
      allocate,
      isTs,
      arrowParam: name => arrowParam(name, style),
      indent: unit,
    });

    const guard = h.finallyGuard;
    /** The line a suspending round inside a try with a finally sets its flag with, just before it returns. */
    const flagSet = guard ? new RegExp(`^\\s*${guard.flag} = true;$`, 'm') : undefined;
    const suspendReturn = (s: SuspensionPlan, indent: string): string => {
      const i1 = indent + unit;
      const requests = s.requests.map(r => `${i1}${propertyKey(r.key)}: ${sharing.placeholder(r, i1)},`).join('\n');
      const carried = s.live.filter(l => !l.answered);
      const state = `{ step: ${stringLiteral(s.step)}${carried.map(l => `, ${fieldName(l) === l.name ? l.name : `${fieldName(l)}: ${l.name}`}`).join('')} }`;
      const kinds = [...new Set(s.requests.map(r => (r.kind === 'elicitation-url' ? 'elicitation' : r.kind)))].map(k => stringLiteral(k));
      // Inside a try with a finally, the flag is set once the round is built (what builds it may
      // still throw, and then the finally must run), right before the return it lets through.
      const flagged = s.guardsFinally && guard;
      return [
        ...s.requests.filter(r => r.unwrapped).map(r => `${indent}// ${MARKER_TEXT} ${r.unwrapped!.note}`),
        ...(s.insideTry ? [`${indent}${use('state', stateExports.requireSupport)}(${ctx}, [${kinds.join(', ')}]);`] : []),
        // Inside a try the round is awaited, so that its catch sees what sealing the state throws.
        `${indent}${flagged ? `const ${guard.round} = await` : s.insideTry ? 'return await' : 'return'} ${call}.${boundCallMethods.suspend}(${state}, {`,
        requests,
        `${indent}});`,
        ...(flagged ? [`${indent}${guard.flag} = true;`, `${indent}return ${guard.round};`] : [])
      ].join('\n');
    };

    const stmtText = (node: AnyNode, indent: string, edits: { range: Range; text: string }[] = []): string => {
      const start = leadingStart(node);
      let text = source.slice(start, trailingEnd(source, node.end));
      for (const e of [...edits].sort((a, b) => b.range.start - a.range.start)) {
        text = text.slice(0, e.range.start - start) + e.text + text.slice(e.range.end - start);
      }
      return indent + reindent(text, columnIndent(source, start), indent);
    };

    type Edit = { range: Range; text: string };
    const src = (n: AnyNode): string => source.slice(n.start, n.end);
    const loopOf = (n: AnyNode) => h.loops.find(l => l.range.start === n.start && l.range.end === n.end);
    const switchOf = (n: AnyNode) => h.switches.find(l => l.range.start === n.start && l.range.end === n.end);
    const listOf = (st: AnyNode): AnyNode[] => (st.type === 'BlockStatement' ? st.body : [st]);

    /**
     * A statement list for a phase: runs as written until a suspension, which returns
     * input_required. Besides original statements it prints synthetic ones: `{ lines }`, a
     * `{ chain }` of `head { body }` segments, `{ resumedStmt }` (a suspended statement with its
     * awaits replaced by the answers) and `{ switchNode }`.
     */
    const gen = (stmts: AnyNode[], indent: string, edits: Edit[] = []): string[] => {
      const out: string[] = [];
      for (const st of stmts) {
        if (st.lines) {
          out.push(...(st.lines as string[]).map(l => indent + l));
          continue;
        }
        if (st.chain) {
          const all = [...edits, ...(st.edits ?? [])];
          const segments: string[] = [];
          for (const seg of st.chain as Segment[]) {
            // A finally runs as written unless a round can suspend in its try or catch.
            const suspends = seg.finallyOf !== undefined && flagSet !== undefined && segments.some(text => flagSet.test(text))
              && !(guard!.perPhase ?? []).some(r => r.start === seg.finallyOf.start && r.end === seg.finallyOf.end);
            const segBody = suspends ? [{ chain: [{ head: `if (!${guard!.flag})`, body: seg.body }] }] : seg.body;
            segments.push(`${segments.length === 0 ? indent : ' '}${seg.head === '' ? '' : `${seg.head} `}{\n${gen(segBody, indent + unit, all).join('\n')}\n${indent}}`);
          }
          out.push(segments.join('') + (st.tail ?? ''));
          continue;
        }
        if (st.resumedStmt) {
          out.push(stmtText(st.resumedStmt, indent, edits.filter(e => within(e.range, st.resumedStmt))));
          continue;
        }
        if (st.switchNode) {
          out.push(switchText(st.switchNode, indent, edits));
          continue;
        }
        const group = groupByFirst.get(st.start);
        if (group) {
          out.push(suspendReturn(group, indent));
          return out;
        }
        if (containsSuspension(st)) {
          out.push(...gen(structural(st), indent, edits));
          // A try whose block (and catch) end in this round's return, or a block (an inlined helper's
          // labelled one) that reaches it on every path: what follows cannot run here.
          const rest = stmts.slice(stmts.indexOf(st) + 1);
          const ends = st.type === 'TryStatement' ? exits(st.block.body) && (!st.handler || exits(st.handler.body.body)) : reachesSuspension(st);
          if (ends && !rest.some(r => r.type === 'FunctionDeclaration')) return out;
          continue;
        }
        out.push(stmtText(st, indent, edits.filter(e => within(e.range, st))));
      }
      return out;
    };

    /** One `head { body }` part of a printed chain; `finallyOf` marks a finally block, guarded when its try can suspend. */
    type Segment = { head: string; body: AnyNode[]; finallyOf?: AnyNode };

    /** A statement that contains a suspension, as synthetic statements whose bodies gen splits further. */
    const structural = (st: AnyNode): AnyNode[] => {
      switch (st.type) {
        case 'IfStatement': {
          const chain: { head: string; body: AnyNode[] }[] = [];
          let cur: AnyNode = st;
          for (;;) {
            chain.push({ head: `${chain.length === 0 ? '' : 'else '}if (${src(cur.test)})`, body: listOf(cur.consequent) });
            if (cur.alternate?.type === 'IfStatement') cur = cur.alternate;
            else {
              if (cur.alternate) chain.push({ head: 'else', body: listOf(cur.alternate) });
              break;
            }
          }
          return [{ chain }];
        }
        case 'BlockStatement':
          return [{ chain: [{ head: '', body: st.body }] }];
        case 'TryStatement':
          return [{ chain: [{ head: 'try', body: st.block.body }, ...catchSegment(st), ...finallySegment(st)] }];
        case 'SwitchStatement':
          return [{ switchNode: st }];
        case 'LabeledStatement':
          return [{ chain: [{ head: `${st.label.name}:`, body: listOf(st.body) }] }];
        case 'ForInStatement': {
          // The keys, listed once up front by the same for...in (so in its order, inherited enumerable keys included).
          const loop = loopOf(st)!;
          const key = src(st.left.declarations[0].id);
          return [
            { lines: [`const ${loop.items}${isTs ? ': string[]' : ''} = [];`, `for (const ${key} in ${src(st.right)}) ${loop.items}.push(${key});`] },
            { chain: [{ head: `for (let ${loop.index} = 0; ${loop.index} < ${loop.items}.length; ${loop.index}++)`, body: [forOfBinding(st, loop), ...listOf(st.body)] }] }
          ];
        }
        case 'ForOfStatement': {
          const loop = loopOf(st)!;
          return [
            { lines: [`const ${loop.items} = [...${src(st.right)}];`] },
            { chain: [{ head: `for (let ${loop.index} = 0; ${loop.index} < ${loop.items}.length; ${loop.index}++)`, body: [forOfBinding(st, loop), ...listOf(st.body)] }] }
          ];
        }
        case 'ForStatement':
        case 'WhileStatement':
          return [{ chain: [{ head: source.slice(st.start, st.body.start).trimEnd(), body: listOf(st.body) }] }];
        case 'DoWhileStatement':
          return [{ chain: [{ head: 'do', body: listOf(st.body) }], tail: ` while (${src(st.test)});` }];
        default:
          throw new Error(`cannot split a ${st.type} into phases`);
      }
    };
    const catchSegment = (st: AnyNode): Segment[] =>
      st.handler ? [{ head: st.handler.param ? `catch (${src(st.handler.param)})` : 'catch', body: st.handler.body.body }] : [];
    const finallySegment = (st: AnyNode): Segment[] => (st.finalizer ? [{ head: 'finally', body: st.finalizer.body, finallyOf: st }] : []);
    /** The loop variable, read from the snapshot (and awaited, for a for await...of). */
    const forOfBinding = (st: AnyNode, loop: { items?: string; index?: string }): AnyNode => ({
      lines: [`${st.left.kind} ${src(st.left.declarations[0].id)} = ${st.await ? 'await ' : ''}${loop.items}[${loop.index}];`]
    });
    const switchText = (st: AnyNode, indent: string, edits: Edit[]): string => {
      const lines = [`${indent}switch (${src(st.discriminant)}) {`];
      for (const c of st.cases) {
        lines.push(`${indent}${c.test ? `case ${src(c.test)}:` : 'default:'}`, ...gen(c.consequent, indent + unit, edits));
      }
      lines.push(`${indent}}`);
      return lines.join('\n');
    };

    const restoreLines = (live: CarriedLocal[], scope: AnyNode): string[] =>
      live
        .filter(l => l.scope.start === scope.start && l.scope.end === scope.end)
        .map(l => {
          const value = l.answered ? '' : ` = ${resumed}.${fieldName(l)}`;
          if (l.declare === 'assign') return `${l.name}${value};`;
          // A restored local has its step's type; one the round's answer is assigned to keeps its own.
          const annotation = isTs && l.typeText && l.answered ? `: ${l.typeText}` : '';
          const jsDoc = !isTs && l.typeText ? `/** @type {${l.typeText}} */ ` : '';
          return `${jsDoc}${l.declare} ${l.name}${annotation}${value};`;
        });

    const readerText = (r: RequestPlan): string => {
      const named = schemas.names.get(r) ?? r.schemaText;
      const schema = named ? `, ${named}` : '';
      return `${use('state', r.reader)}(${ctx}, ${stringLiteral(r.key)}${schema})`;
    };

    /**
     * The code that runs when the handler is re-entered after suspension `s`: the round's
     * statements with each await replaced by its answer, then what follows them, level by level
     * outwards. Locals are restored in the block that declared them, so names keep their scopes.
     */
    const resumePhase = (s: SuspensionPlan, indent: string): { stmts: AnyNode[]; lines: string[] } => {
      const edits: Edit[] = s.promiseAll
        ? [{ range: awaitRange(at(s.promiseAll, 'Promise.all')), text: `[${s.requests.map(readerText).join(', ')}]` }]
        : s.requests.map(r => ({ range: r.replace, text: readerText(r) }));
      const last = at(s.statements[s.statements.length - 1]!, 'suspended statement');
      const firstNode = at(s.statements[0]!, 'suspended statement').node as AnyNode;
      const placed = new Set<Range>();
      const suspended = new Set(s.statements.map(r => r.start));
      let stmtPath: ASTPath = last;
      const firstList = siblingsOf(last);
      let inner: AnyNode[] = firstList.slice(firstList.indexOf(firstNode)).map(n => (suspended.has(n.start) ? { resumedStmt: n } : n));
      const blockIfNeeded = (stmts: AnyNode[]): AnyNode[] => (needsBlock(stmts) ? [{ chain: [{ head: '', body: stmts }] }] : stmts);
      for (;;) {
        const parentPath = stmtPath.parent as ASTPath;
        const parentNode = parentPath.node as AnyNode;
        if (parentNode.type === 'BlockStatement' || parentNode.type === 'SwitchCase') {
          const recompute = s.recompute
            .filter(r => !placed.has(r) && within(r, parentNode))
            .flatMap(r => {
              placed.add(r);
              const local = s.recomputedLocals?.find(l => l.range.start === r.start);
              const note = local ? [{ lines: [`// ${MARKER_TEXT} made again on resume: ${local.what} cannot travel in requestState (review that making it twice is safe)`] }] : [];
              return [...note, at(r, 'declaration made again on resume').node];
            });
          inner = [...restoreLines(s.live, parentNode).map(line => ({ lines: [line] })), ...recompute, ...inner];
          if (parentNode === body) return { stmts: inner, lines: gen(inner, indent, [...edits, ...markerEdits]) };
        }
        // The construct this level belongs to, and the continuation re-entering it.
        let enclosing: ASTPath;
        let wrapped: AnyNode[];
        const ownerPath = parentNode.type === 'BlockStatement' ? (parentPath.parent as ASTPath) : parentPath;
        const owner = ownerPath.node as AnyNode;
        if (parentNode.type === 'SwitchCase') {
          const sw = parentPath.parent.node as AnyNode;
          const plan = switchOf(sw)!;
          const later = fallsThrough(parentNode) ? sw.cases.slice(sw.cases.indexOf(parentNode) + 1).flatMap((c: AnyNode) => c.consequent) : [];
          enclosing = parentPath.parent;
          wrapped = [{ chain: [{ head: `${plan.label}:`, body: [...inner, ...later] }], edits: plan.breaks.map(r => ({ range: r, text: `break ${plan.label};` })) }];
        } else if (owner.type === 'TryStatement' && owner.block === parentNode) {
          enclosing = ownerPath;
          wrapped = [{ chain: [{ head: 'try', body: inner }, ...catchSegment(owner), ...finallySegment(owner)] }];
        } else if (owner.type === 'LabeledStatement') {
          enclosing = ownerPath;
          wrapped = [{ chain: [{ head: `${owner.label.name}:`, body: inner }] }];
        } else if (owner.type === 'CatchClause') {
          // The rest of the catch; its try's finally still follows it.
          enclosing = ownerPath.parent;
          const tryNode = enclosing.node as AnyNode;
          wrapped = tryNode.finalizer ? [{ chain: [{ head: 'try', body: inner }, ...finallySegment(tryNode)] }] : blockIfNeeded(inner);
        } else if (loopOf(owner) && (owner.body === parentNode || owner.body === stmtPath.node)) {
          enclosing = ownerPath;
          wrapped = [loopResume(owner, inner, s.live)];
        } else if (owner.type === 'IfStatement') {
          enclosing = ownerPath;
          wrapped = blockIfNeeded(inner);
        } else {
          enclosing = parentPath; // a bare block inside a block
          wrapped = blockIfNeeded(inner);
        }
        while ((enclosing.parent.node as AnyNode).type === 'IfStatement') enclosing = enclosing.parent; // else-if chains
        const outerList = siblingsOf(enclosing);
        // The rest of an if's branch (or a bare block) that ends in a return or throw never reaches
        // what follows the if: leave it out of this phase rather than print code that cannot run.
        const after = outerList.slice(outerList.indexOf(enclosing.node) + 1);
        const ends = (owner.type === 'IfStatement' || enclosing === parentPath) && endsAbruptly(inner) && !after.some((r: AnyNode) => r.type === 'FunctionDeclaration');
        inner = [...wrapped, ...(ends ? [] : after)];
        stmtPath = enclosing;
      }
    };

    /** Re-enters a loop mid-iteration: the suspended iteration's rest first, then the loop as written. */
    const loopResume = (loop: AnyNode, rest: AnyNode[], live: CarriedLocal[]): AnyNode => {
      const plan = loopOf(loop)!;
      const F = plan.first;
      const branches = { chain: [{ head: `if (${F})`, body: rest }, { head: 'else', body: listOf(loop.body) }] };
      const loopScoped = live
        .filter(l => l.scope.start === loop.start && l.scope.end === loop.end)
        .map(l => `${l.name}${isTs && l.typeText && l.answered ? `: ${l.typeText}` : ''}${l.answered ? '' : ` = ${resumed}.${fieldName(l)}`}`);
      if (loop.type === 'ForOfStatement' || loop.type === 'ForInStatement') {
        return {
          chain: [
            {
              head: `for (let ${[...loopScoped, `${F} = true`].join(', ')}; ${plan.index} < ${plan.items}.length; ${plan.index}++, ${F} = false)`,
              body: [forOfBinding(loop, plan), branches]
            }
          ]
        };
      }
      const test = loop.test ? ` || (${src(loop.test)})` : ' || true';
      const update = loop.type === 'ForStatement' && loop.update ? `, ${src(loop.update)}` : '';
      return { chain: [{ head: `for (let ${[...loopScoped, `${F} = true`].join(', ')}; ${F}${test}; ${F} = false${update})`, body: [branches] }] };
    };

    /** Whether the phase code for these statements always ends in a return or throw. */
    /**
     * Whether every path through a block or labelled block ends in this round's suspension: one of
     * its statements suspends (or holds a block that does), and nothing before it can jump out.
     */
    const reachesSuspension = (st: AnyNode): boolean => {
      const list = st.type === 'BlockStatement' ? st.body : st.type === 'LabeledStatement' && st.body.type === 'BlockStatement' ? st.body.body : undefined;
      if (!list) return typeof st.start === 'number' && groupByFirst.has(st.start);
      for (const inner of list as AnyNode[]) {
        if (reachesSuspension(inner)) return true;
        if (jumps(inner)) return false;
      }
      return false;
    };
    const exits = (stmts: AnyNode[]): boolean => {
      if (stmts.some(st => typeof st.start === 'number' && groupByFirst.has(st.start))) return true;
      const last = stmts[stmts.length - 1];
      const node = last?.resumedStmt ?? last;
      return node !== undefined && (node.type === 'ReturnStatement' || node.type === 'ThrowStatement');
    };

    // The block is printed at the handler's own indentation by recast; write it relative to that.
    const bodyIndent = unit;
    const phaseIndent = bodyIndent + unit;
    const i1 = phaseIndent + unit;
    const lines: string[] = [];
    if (h === bannered) lines.push(`${bodyIndent}${banner(plan)}`);
    const steps = isTs ? allocate(stepTypeName(h.nameText)) : undefined;
    if (steps) lines.push(...stepUnion(h, steps, bodyIndent));
    const callLine = lines.length;
    lines.push(`${bodyIndent}const ${call} = ${use('state', stateExports.resume)}${steps ? `<${steps}>` : ''}(${ctx}, ${h.nameText}, ${h.argsText});`);
    lines.push(`${bodyIndent}return ${call}.${boundCallMethods.run}(async ${arrowParam(resumed, style)} => {`);
    // Where the handler could run off its end (returning undefined), each phase must too, rather
    // than fall into the next phase's test.
    const fallsOff = completesNormally(body);
    const phaseBlock = (step: string, code: string[], exit: boolean): void => {
      const declareFlag = guard && flagSet!.test(code.join('\n'))
        ? [`${i1}let ${guard.flag} = false; // true once this round suspends: a finally then waits for the round that leaves its try`]
        : [];
      lines.push(`${phaseIndent}if (${resumed}.step === ${stringLiteral(step)}) {`, ...declareFlag, ...code, ...(exit || !fallsOff ? [] : [`${i1}return;`]), `${phaseIndent}}`);
    };
    phaseBlock('start', gen(body.body, i1, markerEdits), exits(body.body));
    for (const s of h.suspensions) {
      const phase = resumePhase(s, i1);
      phaseBlock(s.step, phase.lines, exits(phase.stmts));
    }
    lines.push(`${phaseIndent}throw ${call}.${boundCallMethods.unknownStep}(${resumed});`, `${bodyIndent}});`);
    const shared = sharing.resolve(lines);
    lines.splice(0, lines.length, ...shared.lines);
    lines.splice(callLine, 0, ...shared.declarations);
    const blockText = `{\n${lines.join('\n')}\n}`;
    let parsed: AnyNode;
    try {
      parsed = parseStatements(`async () => ${blockText};`)[0].expression.body;
    } catch (error) {
      const line = /\((\d+):\d+\)/.exec((error as Error).message)?.[1];
      const text = line ? `async () => ${blockText}`.split('\n')[Number(line) - 1]?.trim() : undefined;
      throw new Error(`the phases generated for ${h.label} do not parse (${(error as Error).message}${text ? `: ${text}` : ''})`);
    }
    fn.body = parsed;
  }

  /**
   * The handler's steps as a union type, each with the locals it carries and their types:
   * `type DeployStep =\n  | { step: 'awaiting-review'; note: string }\n  | ...;` (one line for one step).
   */
  function stepUnion(h: HandlerPlan, name: string, indent: string): string[] {
    const members = h.suspensions.map(s => {
      const fields = s.live.filter(l => !l.answered).map(l => `; ${propertyKey(fieldName(l))}: ${fieldType(l)}`);
      return `{ step: ${stringLiteral(s.step)}${fields.join('')} }`;
    });
    if (members.length === 1) return [`${indent}type ${name} = ${members[0]};`];
    return [`${indent}type ${name} =`, ...members.map((m, i) => `${indent}${unit}| ${m}${i === members.length - 1 ? ';' : ''}`)];
  }

  /**
   * The type a request builder's parameter gets for a body local: the type it has in the handler's steps,
   * where every carried local of that name has the same; none when it is not carried (or differs).
   */
  function carriedType(h: HandlerPlan, name: string): string | undefined {
    // JavaScript: only a type the file wrote (JSDoc); the step types are TypeScript's and import from the SDK.
    const typed = (l: CarriedLocal): boolean => l.typeText !== undefined || (isTs && l.stepType !== undefined);
    const types = new Set(h.suspensions.flatMap(s => s.live.filter(l => l.name === name && typed(l)).map(fieldType)));
    return types.size === 1 ? [...types][0] : undefined;
  }

  /**
   * The type of a for...in or for...of variable (a request in the loop reads it): `string` for a key, the
   * element type of the carried snapshot for an item (for a for await too: a snapshot that travels as JSON
   * holds no promise, so awaiting an item gives the item); none for a pattern.
   */
  function loopVariableType(h: HandlerPlan, name: string): string | undefined {
    const types = new Set<string | undefined>();
    for (const loop of h.loops) {
      if (loop.kind !== 'for-in' && loop.kind !== 'for-of' && loop.kind !== 'for-await-of') continue;
      const left = (at(loop.range, 'loop').node as AnyNode).left;
      const id = left?.type === 'VariableDeclaration' ? left.declarations[0]?.id : undefined;
      if (id?.type !== 'Identifier' || id.name !== name) continue;
      const items = loop.items === undefined ? undefined : carriedType(h, loop.items);
      const element = items === undefined ? undefined : /^(?:readonly )?(.+)\[\]$/.exec(items)?.[1];
      types.add(loop.kind === 'for-in' ? 'string' : element !== undefined && !/\b(Promise|PromiseLike)\b/.test(element) ? element : undefined);
    }
    return types.size === 1 ? [...types][0] : undefined;
  }

  /** Names declared inside a function body (variables, functions, classes, parameters of inner functions, catch bindings). */
  function declaredNames(body: AnyNode): Set<string> {
    const names = new Set<string>();
    const addAll = (node: AnyNode | null | undefined): void => {
      if (node) j(node).find(j.Identifier).forEach(p => void names.add((p.node as AnyNode).name));
      if (node?.type === 'Identifier') names.add(node.name);
    };
    j(body).find(j.VariableDeclarator).forEach(p => addAll((p.node as AnyNode).id));
    j(body).find(j.Function).forEach(p => {
      addAll((p.node as AnyNode).id);
      for (const param of (p.node as AnyNode).params) addAll(param);
    });
    j(body).find(j.ClassDeclaration).forEach(p => addAll((p.node as AnyNode).id));
    j(body).find(j.CatchClause).forEach(p => addAll((p.node as AnyNode).param));
    return names;
  }

  /** A carried local's type in its step: its own type text, what the reader of its round returns, or the type the analysis wrote out. */
  function fieldType(l: CarriedLocal): string {
    if (l.typeText !== undefined) return l.typeText;
    if (l.stepType && 'reader' in l.stepType) return useType(READER_RESULT[l.stepType.reader]);
    return l.stepType?.text ?? 'any';
  }

  /** `Promise<CallToolResult>` → `Promise<CallToolResult | InputRequiredResult>`: the handler now returns either. */
  /** The context parameter (and those before it) a handler or delegate declares none of. */
  function addContextParams(fn: AnyNode, ctx: HandlerPlan['ctx']): void {
    for (const name of ctx.add ?? []) {
      const param = j.identifier(name);
      if (ctx.typed) param.typeAnnotation = j.tsTypeAnnotation(name === ctx.name ? j.tsTypeReference(j.identifier(useType('ServerContext'))) : j.tsUnknownKeyword());
      fn.params.push(param);
    }
  }

  function widenReturnType(fn: AnyNode): void {
    const widened = fn.returnType?.typeAnnotation && widenedAnnotation(fn.returnType.typeAnnotation);
    if (widened) fn.returnType = widened;
  }

  /** `(args: any, ctx: any) => Promise<CallToolResult>`: its result widened as a handler's return type is. */
  function widenFunctionType(type: AnyNode): void {
    // The parser names the result `typeAnnotation` (Babel 7) or `returnType` (Babel 8).
    // Only the type inside is replaced: a new annotation would print as `: T`, not `=> T`.
    const result = type.returnType ?? type.typeAnnotation;
    const widened = result?.typeAnnotation && widenedAnnotation(result.typeAnnotation);
    if (widened) result.typeAnnotation = widened.typeAnnotation;
  }

  /** The type annotation `T | InputRequiredResult` (`Promise<T | InputRequiredResult>` for a promise), unless `T` names it already. */
  function widenedAnnotation(annotation: AnyNode): AnyNode | undefined {
    const promise = annotation.type === 'TSTypeReference' && annotation.typeName?.name === 'Promise' ? annotation.typeParameters?.params?.[0] : undefined;
    const inner = promise ?? annotation;
    const text = source.slice(inner.start, inner.end);
    if (/\bInputRequiredResult\b/.test(text)) return undefined;
    const widened = `${text} | ${useType('InputRequiredResult')}`;
    return parseStatements(`let x: ${promise ? `Promise<${widened}>` : widened};`)[0].declarations[0].id.typeAnnotation;
  }

  /**
   * A JSDoc `@returns {Promise<CallToolResult>}` (JavaScript typed with JSDoc), widened as an
   * annotation is; a type with braces of its own is left as it is.
   */
  function widenJsDocReturns(fnPath: ASTPath): void {
    const fn = fnPath.node as AnyNode;
    const declarator = fnPath.parent?.node as AnyNode;
    const owner = fn.type === 'FunctionDeclaration' ? fn : declarator?.type === 'VariableDeclarator' ? fnPath.parent.parent?.node : fn;
    for (const comment of (owner?.comments ?? []) as AnyNode[]) {
      if (!comment.leading || comment.type !== 'CommentBlock' || !comment.value.startsWith('*')) continue;
      const widened = comment.value.replace(/(@returns?\s*\{)([^{}]*)\}/, (whole: string, tag: string, type: string) => {
        if (/\bInputRequiredResult\b/.test(type)) return whole;
        const inputRequired = `import('${modules.sdk}').InputRequiredResult`;
        const promise = /^\s*Promise<(.*)>\s*$/.exec(type);
        return `${tag}${promise ? `Promise<${promise[1]} | ${inputRequired}>` : `${type.trim()} | ${inputRequired}`}}`;
      });
      if (widened !== comment.value) commentEdits.push({ from: `/*${comment.value}*/`, to: `/*${widened}*/` });
    }
  }

  function awaitRange(p: ASTPath): Range {
    const node = (p.parent.node as AnyNode).type === 'AwaitExpression' ? p.parent.node : p.node;
    return { start: (node as AnyNode).start, end: (node as AnyNode).end };
  }

  function leadingStart(node: AnyNode): number {
    // A comment after code on its line trails that code (see trailingEnd), it does not lead this node.
    const comments = (node.comments ?? node.leadingComments ?? []).filter((c: AnyNode) => c.leading !== false && c.end <= node.start && !afterCode(source, c.start));
    return comments.length > 0 ? Math.min(...comments.map((c: AnyNode) => c.start)) : node.start;
  }



  function siblingsOf(p: ASTPath): AnyNode[] {
    const parent = p.parent.node as AnyNode;
    if (parent.type === 'BlockStatement') return parent.body;
    if (parent.type === 'SwitchCase') return parent.consequent;
    return [p.node];
  }

  /** Imports are top-level statements: a look at the program's body, not a walk of the whole tree. */
  function importedFrom(module: string, name: string): string | undefined {
    let local: string | undefined;
    for (const st of programNode().body as AnyNode[]) {
      if (st.type === 'ImportDeclaration' && st.source.value === module) {
        for (const sp of st.specifiers ?? []) if (sp.type === 'ImportSpecifier' && sp.imported.name === name) local = sp.local?.name ?? name;
      }
      // CommonJS: const { name: local } = require(module)
      if (!isRequire(st)) continue;
      for (const d of st.declarations) {
        if (d.init?.arguments?.[0]?.value !== module || d.id.type !== 'ObjectPattern') continue;
        for (const prop of d.id.properties) if (prop.key?.name === name && prop.value?.type === 'Identifier') local = prop.value.name;
      }
    }
    return local;
  }

  function programNode(): AnyNode {
    return (root.get().node as AnyNode).program;
  }

  /** The names the rewritten code uses from each module, which the file does not import yet. */
  function importsToAdd(): ImportChanges['add'] {
    const missing = (module: string, names: Map<string, string>) =>
      [...names].filter(([name]) => importedFrom(module, name) === undefined).sort(([a], [b]) => a.localeCompare(b));
    const kind = plan.commonJs ? 'require' : 'import';
    return [
      { module: modules.sdk, kind, names: missing(modules.sdk, needed.sdk) },
      ...(isTs ? [{ module: modules.sdk, kind: 'import type' as const, names: missing(modules.sdk, neededTypes) }] : []),
      { module: modules.stdio, kind, names: missing(modules.stdio, needed.stdio) },
      { module: modules.node, kind, names: missing(modules.node, needed.node) },
      { module: modules.state, kind, names: missing(modules.state, needed.state) },
    ];
  }

}


/**
 * The top-level statement a schema's const goes before: the one holding its handler, or for a handler
 * declared as a function (hoisted, so callable before its line runs) after a top-level await, which
 * lets requests in before the module has run to its end, that await's statement.
 */
function schemaHolder(body: AnyNode[], offset: number): AnyNode | undefined {
  const index = body.findIndex(st => typeof st.start === 'number' && st.start <= offset && st.end > offset);
  if (index < 0) return undefined;
  const holder = body[index];
  const fn = holder.type === 'ExportNamedDeclaration' || holder.type === 'ExportDefaultDeclaration' ? holder.declaration : holder;
  if (fn?.type !== 'FunctionDeclaration') return holder;
  return body.slice(0, index).find(awaitsAtTopLevel) ?? holder;
}

/** Whether a statement awaits outside any function of its own (a top-level await, or a for await). */
function awaitsAtTopLevel(node: AnyNode): boolean {
  if (!node || typeof node !== 'object') return false;
  if (node.type === 'AwaitExpression' || (node.type === 'ForOfStatement' && node.await)) return true;
  if (/Function|ClassBody/.test(node.type ?? '')) return false;
  return Object.entries(node).some(([k, v]) => k !== 'loc' && k !== 'comments' && (Array.isArray(v) ? v.some(awaitsAtTopLevel) : typeof v === 'object' && v !== null && typeof (v as AnyNode).type === 'string' && awaitsAtTopLevel(v)));
}

/** The type each reader returns: a carried answer's type in its step. */
const READER_RESULT: Record<ResponseReader, string> = { elicitResult: 'ElicitResult', samplingResult: 'CreateMessageResult', rootsResult: 'ListRootsResult' };

/** A local's field in its step: its name, but for a local named `step`, which the step's name holds. */
function fieldName(l: CarriedLocal): string {
  return l.name === 'step' ? 'stepValue' : l.name;
}

/** The union of a handler's steps is named from its tool (`deploy` → `DeployStep`), or `Step` when the name is not a literal. */
function stepTypeName(nameText: string): string {
  const literal = /^(['"`])([^'"`$\\]*)\1$/.exec(nameText.trim())?.[2];
  const words = literal?.split(/[^A-Za-z0-9]+/).filter(Boolean).map(w => w[0]!.toUpperCase() + w.slice(1)) ?? [];
  const name = `${words.join('')}Step`;
  return /^[A-Za-z]/.test(name) ? name : 'Step';
}

/** What the first migrated handler of a file says of them all. */
function banner(plan: FilePlan): string {
  return `// ${MARKER_TEXT} input_required phases (MCP 2026-07-28); state sealed by ${plan.stateModuleSpecifier}`;
}

/** The handler the banner goes in: the file's first, unless the file has it already (from a run that migrated another handler). */
function banneredHandler(source: string, plan: FilePlan): HandlerPlan | undefined {
  if (source.includes(banner(plan))) return undefined;
  return [...plan.handlers].sort((a, b) => a.fn.start - b.fn.start)[0];
}

/** The requests whose schemas are declared apart, each schema's text moved to the top level. */
function schemaSites(source: string, plan: FilePlan): SchemaSite[] {
  return plan.handlers.flatMap(handler =>
    handler.suspensions.flatMap(s =>
      s.requests.filter(canDeclareApart).map(request => {
        const at = source.indexOf(request.paramsText!, handler.fn.start) + request.paramsText!.indexOf(request.schemaText!);
        return { handler, request, text: reindent(request.schemaText!, columnIndent(source, at), '') };
      })
    )
  );
}

/** Where a statement's text ends, with the comment that trails it on its line (`x(); // why`). */
function trailingEnd(source: string, end: number): number {
  const trailing = /^[ \t]*(?:\/\/[^\n]*|\/\*(?:(?!\*\/)[^\n])*\*\/(?=[ \t]*(?:\r?\n|$)))/.exec(source.slice(end, end + 2000));
  return trailing ? end + trailing[0].length : end;
}

/** Whether code comes before `offset` on its line. */
function afterCode(source: string, offset: number): boolean {
  const lineStart = source.lastIndexOf('\n', offset - 1) + 1;
  return !/^[ \t]*$/.test(source.slice(lineStart, offset));
}

function within(r: Range, node: AnyNode): boolean {
  return r.start >= node.start && r.end <= node.end;
}

/** Whether a case clause can run on into the next one (conservative: true when unsure). */
function fallsThrough(clause: AnyNode): boolean {
  let last = clause.consequent[clause.consequent.length - 1];
  while (last?.type === 'BlockStatement') last = last.body[last.body.length - 1];
  return !last || (!['BreakStatement', 'ReturnStatement', 'ThrowStatement', 'ContinueStatement'].includes(last.type) && completesNormally(last));
}

/** Whether a list of statements to print (plain or resumed) ends in a statement that cannot complete normally. */
function endsAbruptly(stmts: AnyNode[]): boolean {
  const last = stmts[stmts.length - 1];
  const node = last?.resumedStmt ?? last;
  return node !== undefined && typeof node.type === 'string' && !completesNormally(node);
}

/** Whether control can reach the end of a statement (conservative: true when unsure). */
function completesNormally(st: AnyNode): boolean {
  switch (st.type) {
    case 'ReturnStatement':
    case 'ThrowStatement':
      return false;
    case 'BlockStatement':
      return st.body.every(completesNormally);
    case 'IfStatement':
      return !st.alternate || completesNormally(st.consequent) || completesNormally(st.alternate);
    case 'TryStatement':
      if (st.finalizer && !completesNormally(st.finalizer)) return false;
      return completesNormally(st.block) || (st.handler !== null && st.handler !== undefined && completesNormally(st.handler.body));
    case 'SwitchStatement': {
      // A case that completes normally falls into the next one: with a default and no break out
      // of the switch, only the last case decides.
      const last = st.cases[st.cases.length - 1];
      if (!st.cases.some((c: AnyNode) => !c.test) || st.cases.some((c: AnyNode) => c.consequent.some(breaksOut))) return true;
      return last.consequent.every(completesNormally);
    }
    default:
      return true;
  }
}

/** Whether a statement can leave its list other than at its end: a break, continue, return or throw anywhere in it. */
function jumps(node: AnyNode): boolean {
  if (!node || typeof node !== 'object') return false;
  if (/^(Break|Continue|Return|Throw)Statement$/.test(node.type ?? '')) return true;
  if (/Function|ClassBody/.test(node.type ?? '')) return false;
  return Object.entries(node).some(([k, v]) => k !== 'loc' && k !== 'comments' && (Array.isArray(v) ? v.some(jumps) : typeof v === 'object' && v !== null && typeof (v as AnyNode).type === 'string' && jumps(v)));
}

/** Whether a statement holds an unlabelled break that leaves the switch it sits in (not an inner loop or switch). */
function breaksOut(node: AnyNode): boolean {
  if (!node || typeof node !== 'object') return false;
  if (node.type === 'BreakStatement') return !node.label;
  if (/^(For|ForIn|ForOf|While|DoWhile|Switch)Statement$|Function|ClassBody/.test(node.type ?? '')) return false;
  return Object.entries(node).some(([k, v]) => k !== 'loc' && k !== 'comments' && (Array.isArray(v) ? v.some(breaksOut) : typeof v === 'object' && v !== null && typeof (v as AnyNode).type === 'string' && breaksOut(v)));
}

/** Braces are only needed where the spliced statements declare block-scoped names. */
function needsBlock(stmts: AnyNode[]): boolean {
  return stmts.some(st => {
    if (st.lines) return (st.lines as string[]).some(l => /^(const|let|class|function)\b/.test(l));
    const s = st.resumedStmt ?? st;
    return (s.type === 'VariableDeclaration' && s.kind !== 'var') || s.type === 'ClassDeclaration' || s.type === 'FunctionDeclaration';
  });
}

/** The leading whitespace of the line an offset is on. */
function columnIndent(source: string, offset: number): string {
  const lineStart = source.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(source.slice(lineStart))![0];
}

/** The file's indentation step: the most common increase of indentation from one line to the next. */
/**
 * The server construction with `requestState: { verify }` in its options, written as text in the file's own
 * layout (an object literal keeps its lines, its indentation and its trailing comma), so nothing is reprinted.
 */
function wiredConstruction(source: string, server: ServerWiringPlan, verify: string, style: CodeStyle): string {
  const unit = style.unit;
  const property = `requestState: { verify: ${verify} }`;
  const { construct, options, firstArg } = server;
  if (!options) {
    const close = source.lastIndexOf(')', construct.end);
    return `${source.slice(construct.start, close)}${firstArg ? '' : '{}'}, { ${property} }${source.slice(close, construct.end)}`;
  }
  const literal = source.slice(options.start, options.end);
  const withProperty = server.optionsIsObjectLiteral ? withLastProperty(literal, property, unit) : `{ ...${literal}, ${property} }`;
  const wired = `${source.slice(construct.start, options.start)}${withProperty}${source.slice(options.end, construct.end)}`;
  // Grown past the line length a formatter keeps, a literal on one line gets a line per property.
  const lineStart = source.lastIndexOf('\n', construct.start - 1) + 1;
  const tooLong = source.slice(lineStart, construct.start).length + wired.split('\n')[0]!.length > MAX_LINE;
  if (!tooLong || !server.optionProperties || literal.includes('\n')) return wired;
  const indent = /^[ \t]*/.exec(source.slice(lineStart))![0];
  const items = [...server.optionProperties.map(r => source.slice(r.start, r.end)), property].map(p => `${indent}${unit}${p}`);
  const body = `${items.join(',\n')}${style.trailingCommas ? ',' : ''}`;
  return `${source.slice(construct.start, options.start)}{\n${body}\n${indent}}${source.slice(options.end, construct.end)}`;
}

/** An object literal's text with one more property, on a line of its own when its properties are (`as` casts kept). */
function withLastProperty(literal: string, property: string, unit: string): string {
  const close = literal.lastIndexOf('}');
  const inside = literal.slice(literal.indexOf('{') + 1, close);
  if (inside.trim() === '') return `${literal.slice(0, literal.indexOf('{'))}{ ${property} }${literal.slice(close + 1)}`;
  const before = literal.slice(0, close).replace(/\s*$/, '');
  const multiline = /\n\s*$/.test(literal.slice(0, close));
  const comma = before.endsWith(',') ? '' : ',';
  if (!multiline) return `${before}${comma} ${property} ${literal.slice(close)}`;
  const lastLine = before.slice(before.lastIndexOf('\n') + 1);
  const closeIndent = /[ \t]*$/.exec(literal.slice(0, close))![0];
  const indent = /^[ \t]*/.exec(lastLine)![0] || closeIndent + unit;
  return `${before}${comma}\n${indent}${property}${comma ? '' : ','}\n${closeIndent}${literal.slice(close)}`;
}


/**
 * Moves a multi-line slice from its original indentation to a new one, but for the lines that start
 * inside a template literal's text: their leading spaces are part of the string.
 */
function reindent(text: string, from: string, to: string): string {
  if (!text.includes('\n')) return text;
  const strings = templateTexts(text);
  let offset = 0;
  return text
    .split('\n')
    .map((line, i) => {
      const at = offset;
      offset += line.length + 1;
      if (i === 0 || strings.some(([start, end]) => at > start && at < end)) return line;
      return line.startsWith(from) ? to + line.slice(from.length) : line;
    })
    .join('\n');
}

/** Where the text parts of template literals are in a slice of code (for a `${...}`, the code inside is not). */
function templateTexts(code: string): [number, number][] {
  if (!code.includes('`')) return [];
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, false, ts.LanguageVariant.Standard, code);
  const found: [number, number][] = [];
  // The brace depth each open `${` started at: its `}` resumes the template.
  const substitutions: number[] = [];
  let depth = 0;
  for (let kind = scanner.scan(); kind !== ts.SyntaxKind.EndOfFileToken; kind = scanner.scan()) {
    if (kind === ts.SyntaxKind.CloseBraceToken && substitutions.at(-1) === depth) kind = scanner.reScanTemplateToken(false);
    switch (kind) {
      case ts.SyntaxKind.NoSubstitutionTemplateLiteral:
        found.push([scanner.getTokenStart(), scanner.getTokenEnd()]);
        break;
      case ts.SyntaxKind.TemplateHead:
        found.push([scanner.getTokenStart(), scanner.getTokenEnd()]);
        substitutions.push(depth);
        break;
      case ts.SyntaxKind.TemplateMiddle:
        found.push([scanner.getTokenStart(), scanner.getTokenEnd()]);
        break;
      case ts.SyntaxKind.TemplateTail:
        found.push([scanner.getTokenStart(), scanner.getTokenEnd()]);
        substitutions.pop();
        break;
      case ts.SyntaxKind.OpenBraceToken:
        depth++;
        break;
      case ts.SyntaxKind.CloseBraceToken:
        depth--;
        break;
      default:
        break;
    }
  }
  return found;
}

export function propertyKey(key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? key : JSON.stringify(key);
}
