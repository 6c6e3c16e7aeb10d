/**
 * A handler's context moved in SDK 2.x (`extra.signal` → `ctx.mcpReq.signal`, `extra.sendRequest` →
 * `ctx.mcpReq.send`). The official codemod moves the members of a second parameter named `extra` only:
 * a context named otherwise (`context`, `ctx`), the only parameter of a handler without arguments, and a
 * destructured one (`async (args, { sendRequest }) => ...`, `const { sendRequest } = extra`, which it
 * flags "Manual refactoring required") keep their 1.x members, which 2.x's context lacks (TS2339 in
 * TypeScript; `undefined is not a function` at run time). This repair moves them the way the codemod
 * moves `extra`'s, with the codemod's own map (asked of it, see `contextMembers`); a destructured
 * context is named (`ctx`) and its members read from it.
 */
import type { Diagnostic, Migration } from '@modelcontextprotocol/codemod';
import {
  Node,
  Project,
  SyntaxKind,
  type ArrowFunction,
  type FunctionExpression,
  type Identifier,
  type ObjectBindingPattern,
  type ParameterDeclaration,
  type SourceFile,
} from 'ts-morph';
import { passesArgumentsThrough } from '../../analysis/forwarding.js';
import { finding, type Repair } from '../repair.js';
import { descendantsOfKind } from '../../analysis/descendants.js';

/** The members of SDK 1.x's RequestHandlerExtra. */
const V1_CONTEXT_KEYS = [
  'signal',
  'authInfo',
  'sessionId',
  '_meta',
  'requestId',
  'taskId',
  'taskStore',
  'taskRequestedTtl',
  'requestInfo',
  'sendNotification',
  'sendRequest',
  'closeSSEStream',
  'closeStandaloneSSEStream',
];

/** Per 1.x member, where the codemod moves it: the path after the context (`.mcpReq.send`, `.http?.authInfo`). */
export type ContextMembers = ReadonlyMap<string, string>;

/**
 * Where the official codemod moves each member of a context named `extra`: its map is not exported, so
 * it is asked, on a handler reading every 1.x member. A member it leaves where it was is not in the map.
 */
export function contextMembers(migration: Migration): ContextMembers {
  const project = new Project({ useInMemoryFileSystem: true, skipAddingFilesFromTsConfig: true });
  const probe = [
    `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';`,
    `new McpServer({ name: 'probe', version: '1' }).registerTool('probe', {}, async (_args, extra) => [${V1_CONTEXT_KEYS.map(k => `extra.${k}`).join(', ')}]);`,
  ].join('\n');
  const sf = project.createSourceFile('/probe.ts', probe);
  for (const transform of migration.transforms) transform.apply(sf, { projectType: 'server' });
  const list = sf.getFirstDescendantByKind(SyntaxKind.ArrayLiteralExpression);
  const members = new Map<string, string>();
  list?.getElements().forEach((element, i) => {
    const moved = /^ctx((?:\??\.[\w$]+)+)$/.exec(element.getText())?.[1];
    const key = V1_CONTEXT_KEYS[i]!;
    if (moved && moved !== `.${key}`) members.set(key, moved);
  });
  return members;
}

export type Callback = ArrowFunction | FunctionExpression;

export function contextParamsRepair(members: ContextMembers): Repair {
  return {
    id: 'context-params',
    name: 'Handler contexts the codemod leaves on 1.x members',
    apply: sf => {
      const diagnostics: Diagnostic[] = [];
      for (const { callback, param } of handlerContexts(sf)) diagnostics.push(...repairContext(sf, callback, param, members));
      const wrapped = wrappedContexts(sf);
      // A pass-through hands the callback the SDK's context unchanged: it is the handler's, moved as one.
      for (const w of wrapped.filter(w => w.passesThrough)) diagnostics.push(...repairContext(sf, w.callback, w.param, members));
      const changesCount = diagnostics.length;
      for (const w of wrapped.filter(w => !w.passesThrough)) diagnostics.push(...wrappedContextFinding(sf, w, members));
      return { changesCount, diagnostics };
    },
  };
}

const REGISTRATIONS = /^(registerTool|registerPrompt|registerResource|tool|prompt|resource|setRequestHandler)$/;

/** Every registered handler written inline, with its context parameter when the call tells which one it is. */
export function handlerContexts(sf: SourceFile): { callback: Callback; param: ParameterDeclaration }[] {
  const found: { callback: Callback; param: ParameterDeclaration }[] = [];
  for (const call of descendantsOfKind(sf, SyntaxKind.CallExpression)) {
    const callee = call.getExpression();
    if (!Node.isPropertyAccessExpression(callee) || !REGISTRATIONS.test(callee.getName())) continue;
    const args = call.getArguments();
    const callback = args[args.length - 1];
    if (!callback || !(Node.isArrowFunction(callback) || Node.isFunctionExpression(callback))) continue;
    const index = contextIndex(callee.getName(), args.slice(1, -1), callback.getParameters().length);
    const param = index === undefined ? undefined : callback.getParameters()[index];
    if (param) found.push({ callback, param });
  }
  return found;
}

/**
 * Handlers a project function wraps before the registration takes them (`registerTool(name, config,
 * withErrors(async (args, extra) => ...))`), with the parameter that would be the context: unless the
 * wrapper is a pass-through of the file's (src/analysis/forwarding.ts), it decides what that parameter
 * receives, so its 1.x members are not moved, only marked.
 */
function wrappedContexts(sf: SourceFile): { callback: Callback; param: ParameterDeclaration; wrapper: string; passesThrough: boolean }[] {
  const found: { callback: Callback; param: ParameterDeclaration; wrapper: string; passesThrough: boolean }[] = [];
  for (const call of descendantsOfKind(sf, SyntaxKind.CallExpression)) {
    const callee = call.getExpression();
    if (!Node.isPropertyAccessExpression(callee) || !REGISTRATIONS.test(callee.getName())) continue;
    const args = call.getArguments();
    const wrapping = args[args.length - 1];
    if (!wrapping || !Node.isCallExpression(wrapping)) continue;
    const callback = wrapping.getArguments().find((a): a is Callback => Node.isArrowFunction(a) || Node.isFunctionExpression(a));
    if (!callback) continue;
    const index = contextIndex(callee.getName(), args.slice(1, -1), callback.getParameters().length);
    const param = index === undefined ? undefined : callback.getParameters()[index];
    if (param && Node.isIdentifier(param.getNameNode()))
      found.push({
        callback,
        param,
        wrapper: wrapping.getExpression().getText(),
        passesThrough: passesArgumentsThrough(wrapping, callback, index!),
      });
  }
  return found;
}

/** A marker on a wrapped handler whose context parameter reads members SDK 2.x moved. */
function wrappedContextFinding(
  sf: SourceFile,
  wrapped: { callback: Callback; param: ParameterDeclaration; wrapper: string },
  members: ContextMembers,
): Diagnostic[] {
  const name = wrapped.param.getName();
  const reads = new Set<string>();
  for (const access of descendantsOfKind(wrapped.callback, SyntaxKind.PropertyAccessExpression)) {
    const target = access.getExpression();
    if (members.has(access.getName()) && Node.isIdentifier(target) && target.getSymbol() === wrapped.param.getSymbol())
      reads.add(access.getName());
  }
  if (reads.size === 0) return [];
  const moves = [...reads].map(m => `${name}.${m} → ${name}${members.get(m)}`).join(', ');
  const message = `a handler wrapped by ${wrapped.wrapper}() reads ${[...reads].map(m => `${name}.${m}`).join(', ')}, where SDK 1.x's context had them; SDK 2.x moved them (${moves}), and the wrapper decides what ${name} is, so they were not moved: if ${wrapped.wrapper}() passes the SDK's context on, move them (and type its parameter ServerContext)`;
  return [{ ...finding(sf, wrapped.param.getStartLineNumber(), 'warning', message), insertComment: true }];
}

/** Which parameter of a registered callback is the context, when the registration's arguments tell. */
function contextIndex(method: string, middle: Node[], params: number): number | undefined {
  if (method === 'setRequestHandler') return 1;
  if (method === 'registerTool' || method === 'registerPrompt') {
    const config = middle[0];
    if (!config || !Node.isObjectLiteralExpression(config)) return params >= 2 ? 1 : undefined;
    return config.getProperty(method === 'registerTool' ? 'inputSchema' : 'argsSchema') ? 1 : 0;
  }
  if (method === 'registerResource' || method === 'resource') {
    const template = middle[0] !== undefined && !Node.isStringLiteral(middle[0]) && !Node.isNoSubstitutionTemplateLiteral(middle[0]);
    return template ? 2 : 1;
  }
  // tool(name, [description], [schema], [annotations], cb), prompt(...): with one parameter, it may be either.
  return params >= 2 ? 1 : undefined;
}

function repairContext(sf: SourceFile, callback: Callback, param: ParameterDeclaration, members: ContextMembers): Diagnostic[] {
  const nameNode = param.getNameNode();
  const line = param.getStartLineNumber();
  if (Node.isObjectBindingPattern(nameNode)) {
    const pattern = nameNode.getText();
    const name = freeName(callback);
    if (!name || !expandable(nameNode, callback)) return [];
    expand(nameNode, name, members);
    nameNode.replaceWithText(name);
    return [
      finding(
        sf,
        line,
        'info',
        `the destructured handler context ${pattern} is named ${name} and its members read where SDK 2.x keeps them`,
      ),
    ];
  }
  const name = param.getName();
  const moved: string[] = [];
  // Body destructurings first: they become member reads, which the loop below then moves.
  for (const statement of descendantsOfKind(callback, SyntaxKind.VariableStatement)) {
    const [declaration, ...more] = statement.getDeclarations();
    const pattern = declaration?.getNameNode();
    if (
      more.length > 0 ||
      !pattern ||
      !Node.isObjectBindingPattern(pattern) ||
      declaration!.getInitializer()?.getText() !== name ||
      !expandable(pattern, callback)
    )
      continue;
    expand(pattern, name, members);
    moved.push(`const ${pattern.getText()} = ${name}`);
    statement.remove();
  }
  for (const access of descendantsOfKind(callback, SyntaxKind.PropertyAccessExpression).reverse()) {
    const target = access.getExpression();
    const path = members.get(access.getName());
    if (!path || !Node.isIdentifier(target) || target.getText() !== name || target.getSymbol() !== param.getSymbol()) continue;
    moved.push(`${name}.${access.getName()}`);
    access.replaceWithText(`${name}${access.hasQuestionDotToken() ? `?${path}` : path}`);
  }
  if (moved.length === 0) return [];
  return [
    finding(
      sf,
      line,
      'info',
      `the handler context "${name}" read with SDK 1.x members (${[...new Set(moved)].join(', ')}), which the official codemod moves for a context named extra only: moved where SDK 2.x keeps them`,
    ),
  ];
}

/** A name for a destructured context no identifier of the callback uses. */
function freeName(callback: Callback): string | undefined {
  const used = new Set(descendantsOfKind(callback, SyntaxKind.Identifier).map(i => i.getText()));
  return ['ctx', 'context', 'mcpCtx'].find(n => !used.has(n));
}

/** Plain bindings of known members (no default, rest or nesting), never assigned to. */
function expandable(pattern: ObjectBindingPattern, callback: Callback): boolean {
  return pattern.getElements().every(element => {
    const key = element.getPropertyNameNode()?.getText() ?? element.getName();
    if (
      element.getDotDotDotToken() ||
      element.getInitializer() ||
      !Node.isIdentifier(element.getNameNode()) ||
      !V1_CONTEXT_KEYS.includes(key)
    )
      return false;
    return references(element.getNameNode() as Identifier, callback).every(ref => !isAssigned(ref));
  });
}

/** Each use of a binding of `pattern` becomes a read of its member on `name`, where SDK 2.x keeps it. */
function expand(pattern: ObjectBindingPattern, name: string, members: ContextMembers): void {
  const callback = pattern.getFirstAncestor(a => Node.isArrowFunction(a) || Node.isFunctionExpression(a)) as Callback;
  const edits: { node: Node; text: string }[] = [];
  for (const element of pattern.getElements()) {
    const key = element.getPropertyNameNode()?.getText() ?? element.getName();
    const read = `${name}${members.get(key) ?? `.${key}`}`;
    for (const ref of references(element.getNameNode() as Identifier, callback)) {
      const parent = ref.getParent();
      edits.push(
        parent && Node.isShorthandPropertyAssignment(parent)
          ? { node: parent, text: `${ref.getText()}: ${read}` }
          : { node: ref, text: read },
      );
    }
  }
  for (const { node, text } of edits.sort((a, b) => b.node.getStart() - a.node.getStart())) node.replaceWithText(text);
}

/** The identifiers of `callback` naming the same binding as `name` (its declaration left out). */
function references(name: Identifier, callback: Callback): Identifier[] {
  const symbol = name.getSymbol()?.compilerSymbol;
  if (!symbol) return [];
  const checker = callback.getProject().getTypeChecker().compilerObject;
  // In `{ sendRequest }` the identifier's own symbol is the property's; the value it reads is the binding.
  const valueOf = (id: Identifier) => {
    const parent = id.getParent();
    return parent && Node.isShorthandPropertyAssignment(parent)
      ? checker.getShorthandAssignmentValueSymbol(parent.compilerNode)
      : id.getSymbol()?.compilerSymbol;
  };
  return descendantsOfKind(callback, SyntaxKind.Identifier).filter(id => id !== name && valueOf(id) === symbol);
}

function isAssigned(ref: Identifier): boolean {
  const parent = ref.getParent();
  if (parent && (Node.isPrefixUnaryExpression(parent) || Node.isPostfixUnaryExpression(parent))) return true;
  if (!parent || !Node.isBinaryExpression(parent) || parent.getLeft() !== ref) return false;
  const kind = parent.getOperatorToken().getKind();
  return kind >= SyntaxKind.FirstAssignment && kind <= SyntaxKind.LastAssignment;
}
