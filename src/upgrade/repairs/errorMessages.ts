/**
 * SDK 1.x's `McpError` wrote its code into its message (`super(\`MCP error ${code}: ${message}\`)`), and that
 * message is what a client got: the JSON-RPC error of a low-level handler, the text of a tool's error
 * result. 2.x's `ProtocolError`, which the official codemod puts in its place, keeps the message as given,
 * so every client would see `Unknown tool: x` where it saw `MCP error -32601: Unknown tool: x`. The
 * message is written with the prefix the old class added, so that clients see the same error; the code
 * expression is read once more for it, so only a name, a member or a number is taken.
 */
import type { Diagnostic } from '@modelcontextprotocol/codemod';
import { Node, SyntaxKind, type CallExpression, type NewExpression, type SourceFile } from 'ts-morph';
import { finding, type Repair } from '../repair.js';
import { descendantsOfKind } from '../../analysis/descendants.js';

const V2_PACKAGES = /^@modelcontextprotocol\/(server|client|core)$/;

/** The local name `ProtocolError` is imported as from a 2.x package, if it is. */
function protocolErrorName(sf: SourceFile): string | undefined {
  for (const declaration of sf.getImportDeclarations()) {
    if (!V2_PACKAGES.test(declaration.getModuleSpecifierValue())) continue;
    const named = declaration.getNamedImports().find(n => n.getName() === 'ProtocolError' && !n.isTypeOnly());
    if (named && !declaration.isTypeOnly()) return named.getAliasNode()?.getText() ?? 'ProtocolError';
  }
  return undefined;
}

/** `new ProtocolError(code, message)`, and `super(code, message)` in a class extending it. */
function constructions(sf: SourceFile, name: string): (NewExpression | CallExpression)[] {
  const made = descendantsOfKind(sf, SyntaxKind.NewExpression).filter(n => n.getExpression().getText() === name);
  const supers = descendantsOfKind(sf, SyntaxKind.CallExpression).filter(call => {
    if (call.getExpression().getKind() !== SyntaxKind.SuperKeyword) return false;
    const owner = call.getFirstAncestorByKind(SyntaxKind.ClassDeclaration) ?? call.getFirstAncestorByKind(SyntaxKind.ClassExpression);
    return owner?.getExtends()?.getExpression().getText() === name;
  });
  return [...made, ...supers];
}

/** The code as the prefix shows it: a number as written, else the expression interpolated. */
function codeText(code: Node): string | undefined {
  const bare = Node.isPrefixUnaryExpression(code) && code.getOperatorToken() === SyntaxKind.MinusToken ? code.getOperand() : code;
  if (Node.isNumericLiteral(bare)) return code.getText();
  let name: Node = code;
  while (Node.isPropertyAccessExpression(name)) name = name.getExpression();
  return Node.isIdentifier(name) || Node.isThisExpression(name) ? `\${${code.getText()}}` : undefined;
}

/** Text inside a template literal that reads as `value` does. */
function templateText(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/`/g, '\\`').replace(/\$\{/g, '\\${').replace(/\r/g, '\\r').replace(/\n/g, '\\n');
}

/** The message written with the prefix, as an edit of the file's text; undefined where the code or the message cannot be read. */
function withPrefix(construction: NewExpression | CallExpression): TextEdit | undefined {
  const [code, message] = construction.getArguments();
  const prefix = code && codeText(code);
  if (!prefix || !message) return undefined;
  const head = `MCP error ${prefix}: `;
  const text =
    Node.isNoSubstitutionTemplateLiteral(message) || Node.isTemplateExpression(message)
      ? `\`${head}${message.getText().slice(1)}`
      : Node.isStringLiteral(message)
        ? `\`${head}${templateText(message.getLiteralValue())}\``
        : `\`${head}\${${message.getText()}}\``;
  return { message, start: message.getStart(), end: message.getEnd(), text };
}

interface TextEdit {
  message: Node;
  start: number;
  end: number;
  text: string;
}

/**
 * The edits made in one change of the file's text: an edit of a node parses the whole file again, once per
 * construction. Edits inside another (a ProtocolError made in another's message) are made one by one, the
 * innermost first, each reading the text the one before left.
 */
function applyEdits(sf: SourceFile, lastFirst: (NewExpression | CallExpression)[], edits: (TextEdit | undefined)[]): void {
  const made = edits.filter((e): e is TextEdit => e !== undefined).sort((a, b) => b.start - a.start);
  const nested = made.some((e, i) => i > 0 && e.end > made[i - 1]!.start);
  if (nested) {
    // Last first: an edit never moves a construction still to be edited.
    for (const construction of lastFirst) {
      const edit = withPrefix(construction);
      edit?.message.replaceWithText(edit.text);
    }
    return;
  }
  let text = sf.getFullText();
  for (const edit of made) text = text.slice(0, edit.start) + edit.text + text.slice(edit.end);
  if (made.length > 0) sf.replaceText([0, sf.getEnd()], text);
}

export const errorMessagesRepair: Repair = {
  id: 'error-messages',
  name: "McpError's code prefix in the message clients see",
  apply: sf => {
    const diagnostics: Diagnostic[] = [];
    const name = protocolErrorName(sf);
    if (!name) return { changesCount: 0, diagnostics };
    // Last first, as the edits are made where one is inside another.
    const made = constructions(sf, name).sort((a, b) => b.getStart() - a.getStart());
    const edits = made.map(withPrefix);
    made.forEach((construction, i) => {
      const line = construction.getStartLineNumber();
      diagnostics.push(
        edits[i]
          ? finding(
              sf,
              line,
              'info',
              `the ${name} message keeps the "MCP error <code>: " prefix SDK 1.x's McpError added to it and 2.x's ProtocolError does not, so clients see the same error as before; drop it if no client reads the text`,
            )
          : finding(
              sf,
              line,
              'warning',
              `SDK 1.x's McpError added "MCP error <code>: " to its message and 2.x's ProtocolError does not: clients now see the message without it (its code or message could not be read here to keep it)`,
            ),
      );
    });
    applyEdits(sf, made, edits);
    return { changesCount: diagnostics.length, diagnostics };
  },
};
