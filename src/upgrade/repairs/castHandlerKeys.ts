/**
 * `(server.server.setRequestHandler as any)(ListPromptsRequestSchema, handler)`: a registration through a
 * cast (or parentheses, `!`, `['setRequestHandler']`), written so to get past 1.x's types. SDK 2.x keys
 * handlers by the method string, and given anything else throws as the server starts (`'[object Object]' is
 * not a spec request method`). The official codemod rewrites the key of `x.setRequestHandler(Schema, ...)`
 * only, and through the cast merely asks to "update assertions/lookups", so the migrated server never
 * started. Run before the codemod, this repair writes the method string the codemod writes for that schema
 * (asked of it: its map is not exported) and drops the schema's import where nothing else uses it; a key it
 * cannot name (a task schema, a project's own schema) is marked as failing at start-up.
 */
import type { Diagnostic, Migration } from '@modelcontextprotocol/codemod';
import { Node, Project, SyntaxKind, type CallExpression, type ImportSpecifier } from 'ts-morph';
import { FAILS_AT_START } from '../markers.js';
import { finding, leftover, type Repair } from '../repair.js';
import { descendantsOfKind } from '../../analysis/descendants.js';

const REGISTRATIONS = new Set(['setRequestHandler', 'setNotificationHandler']);
const V1_PATH = /^@modelcontextprotocol\/sdk(?:\/|$)/;

/** The method string the official codemod writes for an SDK 1.x schema as a registration's key, if any. */
export type HandlerKeys = (schema: string) => string | undefined;

/**
 * Asks the official codemod which method string it writes for each schema: a probe registering the
 * schema, imported from SDK 1.x, the way the codemod rewrites (`s.setRequestHandler(Schema, h)`).
 */
export function codemodHandlerKeys(migration: Migration): HandlerKeys {
  const transforms = migration.transforms.filter(t => t.id === 'handlers');
  const answers = new Map<string, string | undefined>();
  return schema => {
    if (!/^[A-Za-z_$][\w$]*$/.test(schema)) return undefined;
    if (!answers.has(schema)) {
      const project = new Project({ useInMemoryFileSystem: true, skipAddingFilesFromTsConfig: true });
      const probe = `import { ${schema} } from '@modelcontextprotocol/sdk/types.js';\ndeclare const s: any;\ns.setRequestHandler(${schema}, () => ({}));\n`;
      const sf = project.createSourceFile('/probe.ts', probe);
      for (const transform of transforms.length ? transforms : migration.transforms) transform.apply(sf, { projectType: 'server' });
      const key = descendantsOfKind(sf, SyntaxKind.CallExpression)
        .find(c => c.getExpression().getText() === 's.setRequestHandler')
        ?.getArguments()[0];
      answers.set(schema, key && Node.isStringLiteral(key) ? key.getLiteralValue() : undefined);
    }
    return answers.get(schema);
  };
}

/** The registration a call makes through a cast, `!`, parentheses or an element access, if it is one. */
function castRegistration(call: CallExpression): string | undefined {
  let callee: Node = call.getExpression();
  // A plain `x.setRequestHandler(...)` is the official codemod's.
  if (Node.isPropertyAccessExpression(callee)) return undefined;
  while (
    Node.isParenthesizedExpression(callee) ||
    Node.isAsExpression(callee) ||
    Node.isTypeAssertion(callee) ||
    Node.isNonNullExpression(callee) ||
    Node.isSatisfiesExpression(callee)
  )
    callee = callee.getExpression();
  if (Node.isPropertyAccessExpression(callee) && REGISTRATIONS.has(callee.getName())) return callee.getName();
  const key = Node.isElementAccessExpression(callee) ? callee.getArgumentExpression() : undefined;
  if (key && (Node.isStringLiteral(key) || Node.isNoSubstitutionTemplateLiteral(key)) && REGISTRATIONS.has(key.getLiteralValue()))
    return key.getLiteralValue();
  return undefined;
}

/** The SDK 1.x import specifier a key names, when it is a name imported so. */
function v1Import(key: Node): ImportSpecifier | undefined {
  if (!Node.isIdentifier(key)) return undefined;
  const declaration = key.getSymbol()?.getDeclarations()[0];
  if (!declaration || !Node.isImportSpecifier(declaration)) return undefined;
  return V1_PATH.test(declaration.getImportDeclaration().getModuleSpecifierValue()) ? declaration : undefined;
}

/** A key that is no method string: a schema imported from the SDK, named `…Schema`, or built in place (`z.object(...)`). */
function isSchemaKey(key: Node): boolean {
  if (v1Import(key)) return true;
  if (Node.isCallExpression(key) || Node.isObjectLiteralExpression(key)) return true;
  const name = Node.isIdentifier(key) ? key.getText() : Node.isPropertyAccessExpression(key) ? key.getName() : '';
  return /Schema$/.test(name);
}

/** Removes a specifier nothing else in the file reads, and its declaration once it names nothing. */
function dropIfUnused(specifier: ImportSpecifier): void {
  const local = specifier.getAliasNode() ?? specifier.getNameNode();
  const symbol = local.getSymbol();
  if (
    !symbol ||
    descendantsOfKind(specifier.getSourceFile(), SyntaxKind.Identifier).some(
      id => id !== local && id.getText() === local.getText() && id.getSymbol() === symbol,
    )
  )
    return;
  const declaration = specifier.getImportDeclaration();
  specifier.remove();
  if (declaration.getNamedImports().length === 0 && !declaration.getDefaultImport() && !declaration.getNamespaceImport())
    declaration.remove();
}

export function castHandlerKeysRepair(keys: HandlerKeys): Repair {
  return {
    id: 'cast-handler-keys',
    name: 'Handler registrations through a cast, keyed by a 1.x schema',
    apply: sf => {
      const diagnostics: Diagnostic[] = [];
      let changesCount = 0;
      for (const call of descendantsOfKind(sf, SyntaxKind.CallExpression).reverse()) {
        const method = castRegistration(call);
        const key = call.getArguments()[0];
        if (!method || !key || call.getArguments().length < 2 || !isSchemaKey(key)) continue;
        const specifier = v1Import(key);
        const string = specifier ? keys(specifier.getName()) : undefined;
        if (string === undefined) {
          diagnostics.push(
            leftover(
              call,
              `${key.getText()} keys a ${method} call made through a cast: SDK 2.x's ${method} takes a method string ('prompts/list'; for a method of the project's own, ('method/name', { params, result? }, handler)) and refuses anything else, so ${FAILS_AT_START}; then remove this marker`,
            ),
          );
          continue;
        }
        const written = key.getText();
        key.replaceWithText(`'${string}'`);
        dropIfUnused(specifier!);
        changesCount++;
        diagnostics.push(
          finding(
            sf,
            call.getStartLineNumber(),
            'info',
            `${method} through a cast, keyed by ${written}: keyed by its method string '${string}', which SDK 2.x takes`,
          ),
        );
      }
      return { changesCount, diagnostics };
    },
  };
}
