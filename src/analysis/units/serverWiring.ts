/**
 * The SDK servers the project constructs, wired with `requestState: { verify }` once any handler asks: a
 * handler's server is often built elsewhere (a factory, a parameter), so every one is wired, and whichever
 * serves the handler verifies its state. A project subclass is wired at its `super(...)`.
 */
import { Node, SyntaxKind, type ClassDeclaration, type NewExpression, type ObjectLiteralExpression } from 'ts-morph';
import { rangeOf, type ServerWiringPlan } from '../../plan.js';
import { servingFiles, type AnalysisRun } from '../analysisRun.js';
import { serverKindOf, unwrap } from '../mcpSymbols.js';
import { descendantsOfKind } from '../descendants.js';

export function planServerWiring({ handlers, options, r }: AnalysisRun): void {
  if (handlers.size === 0) return;
  const constructions = new Set<Node>();
  for (const sf of servingFiles(options)) {
    for (const n of descendantsOfKind(sf, SyntaxKind.NewExpression)) {
      const call = serverKindOf(n) ? sdkConstructorCall(n) : undefined;
      if (call) constructions.add(call);
    }
  }
  if (constructions.size === 0)
    r.notes.push(
      'no McpServer/Server construction was found: pass requestState: { verify: verifyRequestState } in the options of the server that registers the migrated handlers',
    );
  for (const construction of constructions) {
    const wiring = wiringOf(construction);
    if (wiring && !wiring.alreadyWired) r.planFor(construction.getSourceFile()).servers.push(wiring);
  }
}

/**
 * The call whose arguments reach the SDK server's constructor: `new McpServer(...)` itself, or for a project
 * subclass (`class NotesServer extends McpServer`), the `super(...)` of the last constructor on the way to
 * the SDK class (the `new` when no class on the way declares one). Undefined when a constructor's
 * `super` call cannot be found.
 */
function sdkConstructorCall(created: NewExpression): Node | undefined {
  let current: Node = created;
  let cls = projectClassOf(created.getExpression());
  for (let depth = 0; cls && depth < 5; depth++) {
    const ctor = cls.getConstructors().find(c => c.getBody() !== undefined);
    if (ctor) {
      const superCall = descendantsOfKind(ctor, SyntaxKind.CallExpression).find(
        c => c.getExpression().getKind() === SyntaxKind.SuperKeyword,
      );
      if (!superCall) return undefined;
      current = superCall;
    }
    const base = cls.getExtends()?.getExpression();
    cls = base ? projectClassOf(base) : undefined;
  }
  return current;
}

/** The project's class declaration a name stands for (through imports); undefined for the SDK's own. */
function projectClassOf(name: Node): ClassDeclaration | undefined {
  const symbol = name.getSymbol();
  const declared = (symbol?.isAlias() ? symbol.getAliasedSymbol() : symbol)?.getDeclarations().find(d => Node.isClassDeclaration(d));
  return declared &&
    Node.isClassDeclaration(declared) &&
    !declared.getSourceFile().isInNodeModules() &&
    !declared.getSourceFile().isDeclarationFile()
    ? declared
    : undefined;
}

function wiringOf(construction: Node): ServerWiringPlan | undefined {
  if (!Node.isNewExpression(construction) && !Node.isCallExpression(construction)) return undefined;
  const args = construction.getArguments();
  const [first, options] = args;
  const optionsIsObjectLiteral = options !== undefined && Node.isObjectLiteralExpression(unwrap(options));
  const alreadyWired = optionsIsObjectLiteral && (unwrap(options!) as ObjectLiteralExpression).getProperty('requestState') !== undefined;
  const literal = optionsIsObjectLiteral ? (unwrap(options!) as ObjectLiteralExpression) : undefined;
  return {
    construct: rangeOf(construction),
    options: options ? rangeOf(options) : undefined,
    optionsIsObjectLiteral,
    ...(literal ? { optionProperties: literal.getProperties().map(rangeOf) } : {}),
    firstArg: first ? rangeOf(first) : undefined,
    alreadyWired,
  };
}
