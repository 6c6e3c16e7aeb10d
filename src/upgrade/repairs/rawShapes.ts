/**
 * SDK 1.x's `registerTool` / `registerPrompt` took a zod raw shape (`{ name: z.string() }`) as their schema;
 * 2.x takes a schema object (TS2769 on a raw shape). The official codemod wraps a literal shape in
 * `z.object(...)` and only flags any other value ("Could not verify `inputSchema` is a schema object").
 * Where the value is declared in the file as a raw shape (typed zod's `ZodRawShape`, or a constant or
 * readonly field initialised with an object literal), it is as certain as a literal: wrapped the same way.
 */
import type { Diagnostic } from '@modelcontextprotocol/codemod';
import { Node, SyntaxKind, VariableDeclarationKind, type ImportDeclaration, type SourceFile } from 'ts-morph';
import { moduleReader, tableMembers, withoutAssertions } from '../constValues.js';
import { declaredAtTop, finding, type Repair } from '../repair.js';
import { descendantsOfKind } from '../../analysis/descendants.js';

/** The config members that held a raw shape in SDK 1.x, per registration method. */
const SCHEMA_MEMBERS: Record<string, string[]> = {
  registerTool: ['inputSchema', 'outputSchema'],
  registerPrompt: ['argsSchema'],
};

const ZOD = /^zod(\/v3|\/v4)?$/;

function zodImports(sf: SourceFile): ImportDeclaration[] {
  return sf.getImportDeclarations().filter(d => ZOD.test(d.getModuleSpecifierValue()));
}

/** Whether a type annotation names zod's ZodRawShape (`ZodRawShape`, an alias of it, or `z.ZodRawShape`). */
function namesRawShape(sf: SourceFile, typeText: string): boolean {
  return zodImports(sf).some(d => {
    const named = d
      .getNamedImports()
      .some(n => n.getName() === 'ZodRawShape' && (n.getAliasNode()?.getText() ?? 'ZodRawShape') === typeText);
    const z = d.getNamedImports().find(n => n.getName() === 'z');
    const namespace = d.getNamespaceImport()?.getText() ?? (z && (z.getAliasNode()?.getText() ?? 'z'));
    return named || (namespace !== undefined && typeText === `${namespace}.ZodRawShape`);
  });
}

/** Whether the member's value (a name, `this.name`, or `{ name }`) is, by its declaration in this file, a zod raw shape. */
function isRawShape(member: Node): boolean {
  const value = Node.isPropertyAssignment(member) ? member.getInitializer() : member;
  // Asking the checker builds this project's program, with the default libraries: only worth it when the
  // file declares a variable or field of the name at all (an imported schema, the usual case, is not one).
  const name = Node.isShorthandPropertyAssignment(value)
    ? value.getName()
    : Node.isIdentifier(value)
      ? value.getText()
      : Node.isPropertyAccessExpression(value)
        ? value.getName()
        : undefined;
  if (name === undefined || !declaresNameHere(member.getSourceFile(), name)) return false;
  const symbol = Node.isShorthandPropertyAssignment(value)
    ? value.getValueSymbol()
    : Node.isIdentifier(value) || (Node.isPropertyAccessExpression(value) && Node.isThisExpression(value.getExpression()))
      ? value.getSymbol()
      : undefined;
  const declarations = symbol?.getDeclarations() ?? [];
  const declaration = declarations.length === 1 ? declarations[0] : undefined;
  if (!declaration || declaration.getSourceFile() !== member.getSourceFile()) return false;
  if (!Node.isVariableDeclaration(declaration) && !Node.isPropertyDeclaration(declaration)) return false;
  const typeNode = declaration.getTypeNode();
  if (typeNode) return namesRawShape(member.getSourceFile(), typeNode.getText());
  // Never assigned again: a const, or a readonly field.
  const fixed = Node.isVariableDeclaration(declaration)
    ? declaration.getVariableStatement()?.getDeclarationKind() === VariableDeclarationKind.Const
    : declaration.isReadonly();
  return fixed && Node.isObjectLiteralExpression(declaration.getInitializer());
}

/** Whether the file declares a variable or a class field named `name`, anywhere in it. */
function declaresNameHere(sf: SourceFile, name: string): boolean {
  const named = (d: { getName(): string }) => d.getName() === name;
  return (
    descendantsOfKind(sf, SyntaxKind.VariableDeclaration).some(named) || descendantsOfKind(sf, SyntaxKind.PropertyDeclaration).some(named)
  );
}

function isObjectCall(value: Node | undefined): boolean {
  const callee = Node.isCallExpression(value) ? value.getExpression() : undefined;
  return Node.isPropertyAccessExpression(callee) && callee.getName() === 'object';
}

/** The name zod's `z` is imported as in the file, as a value; undefined when it is not. */
export function importedZodName(sf: SourceFile): string | undefined {
  for (const d of zodImports(sf).filter(i => !i.isTypeOnly())) {
    const named = d.getNamedImports().find(n => n.getName() === 'z' && !n.isTypeOnly());
    const name =
      d.getNamespaceImport()?.getText() ?? d.getDefaultImport()?.getText() ?? (named && (named.getAliasNode()?.getText() ?? 'z'));
    if (name) return name;
  }
  return undefined;
}

/** The name zod's `z` has in the file, imported as a value when only types came from zod; undefined when `z` means something else. */
function zodValueName(sf: SourceFile): string | undefined {
  const imported = importedZodName(sf);
  if (imported) return imported;
  const imports = zodImports(sf);
  if (declaredAtTop(sf, 'z')) return undefined;
  const typeOnly = imports.find(i => i.isTypeOnly() && i.getNamedImports().length > 0 && !i.getNamespaceImport() && !i.getDefaultImport());
  if (typeOnly) {
    // `import type { ZodRawShape } from 'zod'` → `import { z, type ZodRawShape } from 'zod'`
    typeOnly.setIsTypeOnly(false);
    for (const named of typeOnly.getNamedImports()) named.setIsTypeOnly(true);
    typeOnly.insertNamedImport(0, 'z');
  } else {
    const quote = sf.getImportDeclarations()[0]?.getModuleSpecifier().getText()[0] ?? "'";
    sf.insertStatements(sf.getImportDeclarations().length, `import { z } from ${quote}zod${quote};`);
  }
  return 'z';
}

export const rawShapesRepair: Repair = {
  id: 'raw-shapes',
  name: 'Raw zod shapes held in constants and fields',
  apply: sf => {
    const diagnostics: Diagnostic[] = [];
    let zod: string | undefined;
    for (const call of descendantsOfKind(sf, SyntaxKind.CallExpression).reverse()) {
      const callee = call.getExpression();
      const members = Node.isPropertyAccessExpression(callee) ? SCHEMA_MEMBERS[callee.getName()] : undefined;
      const config = call.getArguments().find(a => Node.isObjectLiteralExpression(a));
      if (!members || !config || !Node.isObjectLiteralExpression(config)) continue;
      // All of the call's schemas or none: 2.x's deprecated overload still takes raw shapes alone, never mixed with schema objects.
      const present = members.map(member => ({ member, property: config.getProperty(member) })).filter(p => p.property !== undefined);
      const raw = present.filter(
        p =>
          (Node.isPropertyAssignment(p.property) && Node.isObjectLiteralExpression(p.property.getInitializer())) ||
          ((Node.isPropertyAssignment(p.property) || Node.isShorthandPropertyAssignment(p.property)) && isRawShape(p.property)),
      );
      const schemaObjects = present.filter(p => Node.isPropertyAssignment(p.property) && isObjectCall(p.property.getInitializer()));
      if (raw.length === 0 || raw.length + schemaObjects.length !== present.length) continue;
      zod ??= zodValueName(sf);
      if (!zod) return { changesCount: diagnostics.length, diagnostics };
      for (const { member, property } of raw) {
        if (!Node.isPropertyAssignment(property) && !Node.isShorthandPropertyAssignment(property)) continue;
        const shape = Node.isPropertyAssignment(property) ? property.getInitializerOrThrow().getText() : property.getName();
        const line = call.getStartLineNumber();
        property.replaceWithText(`${member}: ${zod}.object(${shape})`);
        diagnostics.push(
          finding(
            sf,
            line,
            'info',
            `${member}${shape.length > 40 ? '' : ` (${shape})`} is a raw zod shape: wrapped with ${zod}.object(), as SDK 2.x takes a schema object (and never a raw shape beside one)`,
          ),
        );
      }
    }
    return { changesCount: diagnostics.length, diagnostics };
  },
};

/**
 * The codemod's "could not verify `member`" finding stands while its registration (the call on the line
 * the finding follows) still passes that member something else than a literal or an `.object(...)` call.
 */
export function unverifiedSchemaStands(d: Diagnostic, sf: SourceFile): boolean {
  const member = /^(?:Could not verify|Shorthand) `(?:\{ )?(\w+)(?: \})?`/.exec(d.message)?.[1];
  if (!member) return true;
  let line: number;
  try {
    line = d.resolveCurrentLine?.() ?? d.line;
  } catch {
    return true;
  }
  const calls = descendantsOfKind(sf, SyntaxKind.CallExpression).filter(c => c.getStartLineNumber() === line);
  const moduleAt = moduleReader();
  return (
    calls.length === 0 ||
    calls.some(call =>
      call.getArguments().some(config => {
        const property = Node.isObjectLiteralExpression(config) ? config.getProperty(member) : undefined;
        if (Node.isShorthandPropertyAssignment(property)) return true;
        const value = Node.isPropertyAssignment(property) ? property.getInitializer() : undefined;
        if (!value || Node.isObjectLiteralExpression(value) || isObjectCall(value)) return false;
        // `t.schema` of a loop over a const table whose every entry holds a `.object(...)` call.
        const entries = tableMembers(withoutAssertions(value), moduleAt);
        return !entries?.every(entry => entry !== undefined && isObjectCall(withoutAssertions(entry)));
      }),
    )
  );
}
