/**
 * SDK 1.x's `ErrorCode` named as a type (`code: ErrorCode`) stands for any of its codes. 2.x split the enum,
 * and the official codemod sends each member it finds in an expression to one of the two: RequestTimeout and
 * ConnectionClosed to SdkErrorCode (string codes of errors the SDK raises itself), the others to
 * ProtocolErrorCode (the numeric JSON-RPC codes). So the type becomes the union of the enums the run's values
 * can be. 1.x's codes were all numbers: a value the project never wrote as a member (a number, a cast) is a
 * ProtocolErrorCode, and a SdkErrorCode only comes from a member the codemod sends there. When no SDK 1.x file
 * upgraded with it (the run's files, or its group of files importing one another) names such a member (nor
 * the enum itself as a value, which holds them all), the type is ProtocolErrorCode alone, which stays a
 * number where one is passed on (`new ProtocolError(f.code, …)`); a value of SdkErrorCode given to it later
 * fails tsc there, a string enum being no number.
 * Only a type that stands for one value is written (a declaration's, a union's member, an array's element, a
 * cast); as a type argument or under an operator (`Record<ErrorCode, string>`, `keyof ErrorCode`) its meaning
 * changes with the members, so it is left for errorCodeUsesRepair to mark.
 */
import type { Diagnostic } from '@modelcontextprotocol/codemod';
import { createRequire } from 'node:module';
import { Node, SyntaxKind, type SourceFile, type TypeReferenceNode } from 'ts-morph';
import { identifiersNamed } from '../../analysis/names.js';
import { declaredAtTop, finding, type Repair } from '../repair.js';
import { errorCodeNames, importName, isReference, type ErrorCodeHome } from './errorCodeUses.js';
import type { SdkSides } from './typeImports.js';
import { descendantsOfKind } from '../../analysis/descendants.js';

let v1Members: string[] | undefined;

/**
 * SDK 1.x's ErrorCode members, from the 1.x SDK itself (a numeric enum also maps its values back to names);
 * loaded when first asked, since the SDK's types load zod: a run with no SDK 1.x file needs neither.
 */
function v1ErrorCodeMembers(): string[] {
  if (!v1Members) {
    const { ErrorCode } = createRequire(import.meta.url)('@modelcontextprotocol/sdk/types.js') as {
      ErrorCode: Record<string, string | number>;
    };
    v1Members = Object.keys(ErrorCode).filter(k => Number.isNaN(Number(k)));
  }
  return v1Members;
}

/** A JSON-RPC code of 1.x and 2.x alike: where the codemod sends it is where a numeric code lives in 2.x. */
const NUMERIC_MEMBER = 'InternalError';

/** What the run's SDK 1.x files name of ErrorCode as values, read before the official codemod runs. */
export interface ErrorCodeValues {
  /** Members named (`ErrorCode.RequestTimeout`, `ErrorCode['RequestTimeout']`), in an expression or a type. */
  members: Set<string>;
  /** Whether the enum itself is used as a value (`Object.values(ErrorCode)`, `ErrorCode[name]`), naming every member. */
  whole: boolean;
}

/** The members a file names on the names it imports 1.x's ErrorCode as, added to `values`. */
export function addErrorCodeValues(sf: SourceFile, values: ErrorCodeValues): void {
  const names = errorCodeNames(sf);
  if (names.length === 0) return;
  for (const id of identifiersNamed(sf, new Set(names))) {
    if (!names.includes(id.getText()) || !isReference(id)) continue;
    const parent = id.getParentOrThrow();
    const argument = Node.isElementAccessExpression(parent) ? parent.getArgumentExpression() : undefined;
    if (Node.isPropertyAccessExpression(parent) && parent.getExpression() === id) values.members.add(parent.getName());
    else if (Node.isQualifiedName(parent) && parent.getLeft() === id) values.members.add(parent.getRight().getText());
    else if (argument && Node.isStringLiteral(argument)) values.members.add(argument.getLiteralValue());
    // `code: ErrorCode` itself is what the repair writes: it adds no value.
    else if (!(Node.isTypeReference(parent) && parent.getTypeName() === id)) values.whole = true;
  }
}

/** Parents under which `ErrorCode` stands for one value of it. */
function standsForOneValue(type: TypeReferenceNode): boolean {
  const parent = type.getParentOrThrow();
  if (Node.isUnionTypeNode(parent) || Node.isArrayTypeNode(parent) || Node.isParenthesizedTypeNode(parent)) return true;
  if (
    Node.isAsExpression(parent) ||
    Node.isTypeAssertion(parent) ||
    Node.isSatisfiesExpression(parent) ||
    Node.isTypeAliasDeclaration(parent)
  )
    return true;
  const declared =
    Node.isPropertySignature(parent) ||
    Node.isPropertyDeclaration(parent) ||
    Node.isParameterDeclaration(parent) ||
    Node.isVariableDeclaration(parent);
  if (declared && parent.getTypeNode() === type) return true;
  const returned =
    Node.isFunctionDeclaration(parent) ||
    Node.isMethodDeclaration(parent) ||
    Node.isArrowFunction(parent) ||
    Node.isFunctionExpression(parent) ||
    Node.isMethodSignature(parent) ||
    Node.isFunctionTypeNode(parent);
  return returned && parent.getReturnTypeNode() === type;
}

/** Whether the file imports `home.name` from its 2.x module under that name. */
function importsFrom(sf: SourceFile, home: ErrorCodeHome): boolean {
  return sf
    .getImportDeclarations()
    .some(
      d => d.getModuleSpecifierValue() === home.module && d.getNamedImports().some(n => n.getName() === home.name && !n.getAliasNode()),
    );
}

/** The enums a value typed ErrorCode can be in 2.x, numeric first, and the members that go elsewhere. */
interface Homes {
  homes: ErrorCodeHome[];
  elsewhere: string[];
}

/** Undefined when the codemod has no home for a member. */
function homesOf(
  values: ErrorCodeValues,
  sides: SdkSides,
  homeOf: (member: string, sides: SdkSides) => ErrorCodeHome | undefined,
): Homes | undefined {
  const numeric = homeOf(NUMERIC_MEMBER, sides);
  if (!numeric) return undefined;
  const homes = new Map([[numeric.name, numeric]]);
  const elsewhere: string[] = [];
  for (const member of values.whole ? v1ErrorCodeMembers() : [...values.members].filter(m => v1ErrorCodeMembers().includes(m))) {
    const home = homeOf(member, sides);
    if (!home) return undefined;
    homes.set(home.name, home);
    if (home.name !== numeric.name) elsewhere.push(member);
  }
  return { homes: [...homes.values()], elsewhere };
}

/** Why the type is written so, for the report. */
function because({ homes, elsewhere }: Homes, values: ErrorCodeValues): string {
  if (homes.length === 1)
    return `no SDK 1.x file upgraded with this one names an ErrorCode member the official codemod sends elsewhere, and 1.x's codes were all numbers (a ${homes[0]!.name} stays a number where it is passed on)`;
  const why = values.whole
    ? 'the enum itself is used as a value, holding all its members'
    : `the files upgraded with this one name ${elsewhere.join(', ')}`;
  return `its values can be of either enum the official codemod sends its members to (${why}); a use that needs a number must narrow it to ${homes[0]!.name}`;
}

export function errorCodeTypesRepair(
  names: string[],
  values: ErrorCodeValues,
  sides: SdkSides,
  homeOf: (member: string, sides: SdkSides) => ErrorCodeHome | undefined,
): Repair {
  return {
    id: 'error-code-types',
    name: 'ErrorCode as a type, which SDK 2.x split into ProtocolErrorCode and SdkErrorCode',
    apply: sf => {
      const diagnostics: Diagnostic[] = [];
      // Still declared (the codemod kept the import): not ours.
      const left = new Set(names.filter(name => !declaredAtTop(sf, name)));
      const found = left.size > 0 ? homesOf(values, sides, homeOf) : undefined;
      // A name the file already gives something other than the 2.x enum would mean that instead.
      if (!found || found.homes.some(h => declaredAtTop(sf, h.name) && !importsFrom(sf, h))) return { changesCount: 0, diagnostics };
      const types = descendantsOfKind(sf, SyntaxKind.TypeReference).filter(
        t => left.has(t.getTypeName().getText()) && t.getTypeArguments().length === 0 && standsForOneValue(t),
      );
      const union = found.homes.map(h => h.name).join(' | ');
      for (const type of types.reverse()) {
        const line = type.getStartLineNumber();
        const name = type.getTypeName().getText();
        type.replaceWithText(found.homes.length > 1 && Node.isArrayTypeNode(type.getParent()) ? `(${union})` : union);
        diagnostics.push(
          finding(sf, line, 'info', `${name} in a type written as ${union}: SDK 2.x has no ErrorCode, and ${because(found, values)}`),
        );
      }
      if (types.length > 0) for (const home of found.homes) importName(sf, home.name, home.module);
      return { changesCount: diagnostics.length, diagnostics };
    },
  };
}
