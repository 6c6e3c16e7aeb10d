/**
 * SDK 2.x needs zod 4 (the upgrade's notes ask for the raise), and zod 4 dropped APIs of zod 3 that a server
 * may use beside its SDK calls: `ZodError.errors`, `.Enum`, `.deepPartial()`, `z.function().args()`,
 * `z.ZodEffects`... Once zod is raised, each fails the project's tsc
 * (or, in JavaScript, at run time). The official codemod rewrites none of them. Where zod 3 already reads a
 * form zod 4 keeps, and the value is certainly zod's, it is written so (`z.ostring()` → `z.string().optional()`,
 * a ZodError's `.errors` → `.issues`, `.formErrors` → `.flatten()`); every other use is left, marked with what
 * zod 4 reads instead, and said. Only imports of zod's main entry change meaning with the raise (`zod/v3`
 * stays zod 3, `zod/v4` is zod 4 already). Error params (`required_error`, `errorMap`) are zodErrorParamsRepair's.
 */
import type { Diagnostic } from '@modelcontextprotocol/codemod';
import { Node, SyntaxKind, type PropertyAccessExpression, type SourceFile } from 'ts-morph';
import { finding, leftover, namesTable, type Repair } from '../repair.js';
import { descendantsOfKind } from '../../analysis/descendants.js';

const ALIKE = 'which zod 3 reads alike';

/** Members of zod 3 schemas and errors that zod 4 dropped, with what to write instead. */
const DROPPED_MEMBERS = namesTable({
  deepPartial: 'has no .deepPartial(): make each nested object .partial() where it is declared',
  nonstrict: `has no .nonstrict(): write .passthrough(), ${ALIKE}`,
  Enum: `has no .Enum on an enum: write .enum, ${ALIKE}`,
  Values: `has no .Values on an enum: write .enum, ${ALIKE}`,
  formErrors: `has no .formErrors on a ZodError: write .flatten(), ${ALIKE}`,
});

/** Members written as zod 4 reads them where the value is certainly zod's: the new member, and what the value must be. */
const RENAMED_MEMBERS = namesTable<{ as: string; on: 'error' | 'enum' }>({
  errors: { as: 'issues', on: 'error' },
  formErrors: { as: 'flatten()', on: 'error' },
  Enum: { as: 'enum', on: 'enum' },
  Values: { as: 'enum', on: 'enum' },
});

/** Methods zod 4 dropped from the schemas one zod factory makes (`z.string().ip()`). */
const DROPPED_CHAINED: Readonly<Record<string, Readonly<Record<string, string>>>> = namesTable({
  string: namesTable({
    ip: 'has no z.string().ip(): write z.ipv4() or z.ipv6()',
    cidr: 'has no z.string().cidr(): write z.cidrv4() or z.cidrv6()',
  }),
  function: namesTable({
    args: 'writes a function schema as z.function({ input: [...], output }), with no .args()',
    returns: 'writes a function schema as z.function({ input: [...], output }), with no .returns()',
  }),
});

/** Factories zod 4 dropped that zod 3 defined as another call. */
const DROPPED_FACTORIES = namesTable({ ostring: 'string().optional()', onumber: 'number().optional()', oboolean: 'boolean().optional()' });

/** Types zod 4 no longer exports. */
const DROPPED_TYPES = namesTable({
  ZodEffects: "has no ZodEffects: a refinement keeps its schema's type and a transform is a ZodPipe (z.ZodType<Output, Input> fits both)",
  ZodTypeDef: 'has no ZodTypeDef: ZodType takes <Output, Input>',
});

export interface ZodNames {
  /** What `z` is imported as (`import { z }`, `import * as z`, `import z`). */
  namespaces: Set<string>;
  /** Local names of named imports, by the name zod exports (`ZodError`, `ZodEffects`). */
  named: Map<string, string>;
}

/** The names zod's main entry is imported as; undefined when the file does not import it. */
export function zodNames(sf: SourceFile): ZodNames | undefined {
  const imports = sf.getImportDeclarations().filter(d => d.getModuleSpecifierValue() === 'zod');
  if (imports.length === 0) return undefined;
  const namespaces = new Set<string>();
  const named = new Map<string, string>();
  for (const d of imports) {
    for (const n of [d.getNamespaceImport(), d.getDefaultImport()]) if (n) namespaces.add(n.getText());
    for (const n of d.getNamedImports()) {
      const local = n.getAliasNode()?.getText() ?? n.getName();
      if (n.getName() === 'z') namespaces.add(local);
      else named.set(n.getName(), local);
    }
  }
  return { namespaces, named };
}

/** The zod factory a chain of calls starts from (`z.string().min(1).ip` → `string`), if it starts at zod. */
export function chainFactory(n: Node, zod: ZodNames): string | undefined {
  let at: Node = n;
  for (;;) {
    if (Node.isCallExpression(at)) at = at.getExpression();
    else if (Node.isPropertyAccessExpression(at) && Node.isIdentifier(at.getExpression()))
      return zod.namespaces.has(at.getExpression().getText()) ? at.getName() : undefined;
    else if (Node.isPropertyAccessExpression(at)) at = at.getExpression();
    else return undefined;
  }
}

/** Whether a name means zod's own export `name` here (`ZodError`, or `z.ZodError`). */
function namesZodExport(text: string, name: string, zod: ZodNames): boolean {
  return zod.named.get(name) === text || [...zod.namespaces].some(z => text === `${z}.${name}`);
}

/**
 * Whether a value is certainly a ZodError: a name typed ZodError, a name inside `if (name instanceof ZodError)`,
 * or the `.error` of a `safeParse` result.
 */
function isZodError(value: Node, zod: ZodNames): boolean {
  if (Node.isPropertyAccessExpression(value) && value.getName() === 'error') {
    const result = value.getExpression();
    const declaration = Node.isIdentifier(result) ? result.getSymbol()?.getValueDeclaration() : undefined;
    const init = Node.isVariableDeclaration(declaration) ? declaration.getInitializer() : undefined;
    const call = Node.isAwaitExpression(init) ? init.getExpression() : init;
    return Node.isCallExpression(call) && /\.safeParse(?:Async)?$/.test(call.getExpression().getText());
  }
  if (!Node.isIdentifier(value)) return false;
  const declaration = value.getSymbol()?.getValueDeclaration();
  const typeNode =
    Node.isParameterDeclaration(declaration) || Node.isVariableDeclaration(declaration) ? declaration.getTypeNode() : undefined;
  if (typeNode && namesZodExport(typeNode.getText(), 'ZodError', zod)) return true;
  return value.getAncestors().some(a => {
    if (!Node.isIfStatement(a) || !a.getThenStatement().containsRange(value.getPos(), value.getEnd())) return false;
    const test = a.getExpression();
    return (
      Node.isBinaryExpression(test) &&
      test.getOperatorToken().getKind() === SyntaxKind.InstanceOfKeyword &&
      test.getLeft().getText() === value.getText() &&
      namesZodExport(test.getRight().getText(), 'ZodError', zod)
    );
  });
}

/** `x`, `(x)`, `x as T`, `x!`: x. */
function bare(n: Node): Node {
  return Node.isParenthesizedExpression(n) || Node.isAsExpression(n) || Node.isNonNullExpression(n) ? bare(n.getExpression()) : n;
}

/** Whether a value is certainly a zod enum: `z.enum(...)`, or a const of this file holding one. */
function isZodEnum(value: Node, zod: ZodNames): boolean {
  const declaration = Node.isIdentifier(value) ? value.getSymbol()?.getValueDeclaration() : undefined;
  const held =
    Node.isVariableDeclaration(declaration) && declaration.getVariableStatement()?.getDeclarationKind() === 'const'
      ? declaration.getInitializer()
      : value;
  return held !== undefined && ['enum', 'nativeEnum'].includes(chainFactory(held, zod) ?? '');
}

/** A member read zod 4 no longer has: written as zod 4 reads it where zod 3 reads that alike, else marked. */
function memberFinding(access: PropertyAccessExpression, zod: ZodNames, diagnostics: Diagnostic[]): void {
  const sf = access.getSourceFile();
  const name = access.getName();
  const receiver = bare(access.getExpression());
  const line = access.getStartLineNumber();
  const say = (why: string) => diagnostics.push(leftover(access, `.${name}: zod 4, which SDK 2.x needs, ${why}; then remove this marker`));
  const renamed = RENAMED_MEMBERS[name];
  if (renamed && (renamed.on === 'error' ? isZodError(receiver, zod) : isZodEnum(receiver, zod))) {
    access.replaceWithText(`${access.getExpression().getText()}.${renamed.as}`);
    diagnostics.push(
      finding(
        sf,
        line,
        'info',
        `.${name} of a ${renamed.on === 'error' ? 'ZodError' : 'zod enum'} written as .${renamed.as}: zod 4, which SDK 2.x needs, has no .${name}, and zod 3 reads .${renamed.as} alike`,
      ),
    );
  } else if (name in DROPPED_MEMBERS) say(DROPPED_MEMBERS[name]!);
  else if (name === 'typeName' && Node.isPropertyAccessExpression(receiver) && receiver.getName() === '_def')
    say("keeps a schema's definition in ._zod.def, and its kind in ._zod.def.type");
  else if (Node.isIdentifier(receiver) && zod.namespaces.has(receiver.getText()) && name in DROPPED_TYPES)
    diagnostics.push(leftover(access, `${access.getText()}: zod 4, which SDK 2.x needs, ${DROPPED_TYPES[name]}; then remove this marker`));
  else {
    const chained = DROPPED_CHAINED[chainFactory(receiver, zod) ?? '']?.[name];
    if (chained && Node.isCallExpression(access.getParent())) say(chained);
  }
}

/** `z.ostring()` → `z.string().optional()`: zod 3 defines the one as the other. */
function rewriteFactories(sf: SourceFile, zod: ZodNames, diagnostics: Diagnostic[]): void {
  for (const call of descendantsOfKind(sf, SyntaxKind.CallExpression).reverse()) {
    const callee = call.getExpression();
    if (
      !Node.isPropertyAccessExpression(callee) ||
      !zod.namespaces.has(callee.getExpression().getText()) ||
      !(callee.getName() in DROPPED_FACTORIES) ||
      call.getArguments().length > 0
    )
      continue;
    const written = `${callee.getExpression().getText()}.${DROPPED_FACTORIES[callee.getName()]}`;
    const line = call.getStartLineNumber();
    diagnostics.push(
      finding(
        sf,
        line,
        'info',
        `${call.getText()} written as ${written}: zod 4, which SDK 2.x needs, has no ${callee.getName()}(), and zod 3 defines it so`,
      ),
    );
    call.replaceWithText(written);
  }
}

/** zod 3 types named in a type (error params are zodErrorParamsRepair's). */
function droppedTypes(sf: SourceFile, zod: ZodNames, diagnostics: Diagnostic[]): void {
  for (const type of descendantsOfKind(sf, SyntaxKind.TypeReference)) {
    const name = Object.keys(DROPPED_TYPES).find(t => namesZodExport(type.getTypeName().getText(), t, zod));
    if (name)
      diagnostics.push(
        leftover(type, `${type.getTypeName().getText()}: zod 4, which SDK 2.x needs, ${DROPPED_TYPES[name]}; then remove this marker`),
      );
  }
}

export const zodApisRepair: Repair = {
  id: 'zod-apis',
  name: 'zod 3 APIs that zod 4 dropped',
  apply: sf => {
    const diagnostics: Diagnostic[] = [];
    const zod = zodNames(sf);
    if (!zod) return { changesCount: 0, diagnostics };
    rewriteFactories(sf, zod, diagnostics);
    droppedTypes(sf, zod, diagnostics);
    for (const access of descendantsOfKind(sf, SyntaxKind.PropertyAccessExpression).reverse()) memberFinding(access, zod, diagnostics);
    return { changesCount: diagnostics.filter(d => !d.insertComment).length, diagnostics };
  },
};
