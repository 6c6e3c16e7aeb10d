/**
 * zod 3's error params (`z.string({ required_error: 'x', invalid_type_error: 'y' })`, `errorMap`), which zod 4,
 * the zod SDK 2.x needs, reads as one `error` param: an error map on the issues the schema raises itself
 * (not its checks'), whose `undefined` falls back to zod's own message. zod 3 turned required_error and
 * invalid_type_error into a map that gives required_error to an undefined input, invalid_type_error to any
 * other invalid_type issue, and zod's message to the rest; `message` beside them won over both. On
 * z.string(), z.number(), z.boolean() and z.bigint(), whose only issue of their own is invalid_type in either
 * zod, `{ error: issue => issue.input === undefined ? 'x' : 'y' }` gives each input the message zod 3 gave it
 * (as zod 4's own guide writes it), and `message` alone stays (zod 4 still takes it). Any other factory raises
 * other issues in zod 4 than in zod 3 (z.enum: invalid_value for every input not a member, where zod 3 gave
 * invalid_type_error to a non-string), an errorMap sees zod 4's issues without zod 3's ctx and no longer the
 * checks' issues, and a message not written out would be read at each issue instead of once: each is left,
 * marked with what zod 4 reads and why it was not written, and said.
 */
import type { Diagnostic } from '@modelcontextprotocol/codemod';
import {
  Node,
  SyntaxKind,
  type CallExpression,
  type Expression,
  type ObjectLiteralExpression,
  type PropertyAssignment,
  type SourceFile,
} from 'ts-morph';
import { finding, leftover, namesTable, type Repair } from '../repair.js';
import { chainFactory, zodNames, type ZodNames } from './zodApis.js';
import { descendantsOfKind } from '../../analysis/descendants.js';

/** Params of zod 3 factories that zod 4 reads as one `error` param, with what zod 4 takes instead. */
const DROPPED_PARAMS = namesTable({
  required_error:
    "takes { error: issue => issue.input === undefined ? 'required' : 'invalid' } in place of required_error and invalid_type_error",
  invalid_type_error:
    "takes { error: issue => issue.input === undefined ? 'required' : 'invalid' } in place of required_error and invalid_type_error",
  errorMap: 'takes { error: issue => message } in place of errorMap',
});

/** Factories whose only issue of their own is invalid_type, in zod 3 and in zod 4 alike. */
const TYPE_ONLY_FACTORIES = new Set(['string', 'number', 'boolean', 'bigint']);

/** The params of one zod call that zod 4 dropped, and the call's param object. */
interface ErrorParams {
  call: CallExpression;
  object: ObjectLiteralExpression;
  dropped: PropertyAssignment[];
}

/** Error params of zod calls (`z.string({ required_error })`); a key of a shape (`z.object({ errorMap: z.string() })`) holds a schema, not a param. */
function errorParams(sf: SourceFile, zod: ZodNames): ErrorParams[] {
  const found: ErrorParams[] = [];
  for (const object of descendantsOfKind(sf, SyntaxKind.ObjectLiteralExpression)) {
    const call = object.getParent();
    if (!Node.isCallExpression(call) || !call.getArguments().includes(object) || chainFactory(call, zod) === undefined) continue;
    const dropped = object
      .getProperties()
      .filter(
        (p): p is PropertyAssignment =>
          Node.isPropertyAssignment(p) && p.getName() in DROPPED_PARAMS && chainFactory(p.getInitializerOrThrow(), zod) === undefined,
      );
    if (dropped.length > 0) found.push({ call, object, dropped });
  }
  return found;
}

/** Whether an expression has one value however often it is read: a string written out, or a const of this file holding one. */
function fixed(value: Expression): boolean {
  if (Node.isStringLiteral(value) || Node.isNoSubstitutionTemplateLiteral(value)) return true;
  const declaration = Node.isIdentifier(value) ? value.getSymbol()?.getValueDeclaration() : undefined;
  return (
    Node.isVariableDeclaration(declaration) &&
    declaration.getVariableStatement()?.getDeclarationKind() === 'const' &&
    declaration.getSourceFile() === value.getSourceFile()
  );
}

/** Why the params cannot be written as zod 4 reads them alike; undefined when they can. */
function notAlike({ call, object }: ErrorParams, zod: ZodNames): string | undefined {
  const callee = call.getExpression();
  const factory =
    Node.isPropertyAccessExpression(callee) && zod.namespaces.has(callee.getExpression().getText()) ? callee.getName() : undefined;
  if (!factory || !TYPE_ONLY_FACTORIES.has(factory) || call.getArguments()[0] !== object) {
    return `the issues ${callee.getText()}() raises itself are not the same in zod 4 as in zod 3, so which input gets which message is to be decided by hand`;
  }
  const others = object
    .getProperties()
    .filter(p => !Node.isPropertyAssignment(p) || !['required_error', 'invalid_type_error', 'message'].includes(p.getName()));
  if (others.some(p => Node.isPropertyAssignment(p) && p.getName() === 'errorMap')) {
    return "an errorMap is not read alike: it gets zod 4's issues, without zod 3's ctx (return undefined for zod's own message), and no longer the issues of the checks chained after it";
  }
  const held = others.map(p => (Node.isPropertyAssignment(p) ? p.getName() : p.getText()));
  if (held.length > 0)
    return `the same params hold ${held.join(', ')}, which this repair does not carry to zod 4${held.includes('description') ? ' (zod 4 takes no description param: write .describe(...))' : ''}`;
  const varying = object
    .getProperties()
    .map(p => (p as PropertyAssignment).getInitializerOrThrow())
    .find(v => !fixed(v));
  return varying
    ? `${varying.getText()} is not a string written out or a const, and zod 4's error function would read it at each issue, not once`
    : undefined;
}

/** `{ required_error: R, invalid_type_error: I }` → `{ error: issue => (issue.input === undefined ? R : I) }`; with a message, the message alone. */
function zod4Params(object: ObjectLiteralExpression): string {
  const value = (name: string) =>
    object
      .getProperties()
      .map(p => p as PropertyAssignment)
      .find(p => p.getName() === name)
      ?.getInitializerOrThrow()
      .getText();
  const message = value('message');
  if (message !== undefined) return `{ message: ${message} }`;
  const [required, invalid] = [value('required_error') ?? 'undefined', value('invalid_type_error') ?? 'undefined'];
  const issue = /\bissue\b/.test(`${required} ${invalid}`) ? 'zodIssue' : 'issue';
  return `{ error: ${issue} => (${issue}.input === undefined ? ${required} : ${invalid}) }`;
}

export const zodErrorParamsRepair: Repair = {
  id: 'zod-error-params',
  name: "zod 3's error params, which zod 4 reads as one error param",
  apply: sf => {
    const diagnostics: Diagnostic[] = [];
    const zod = zodNames(sf);
    if (!zod) return { changesCount: 0, diagnostics };
    for (const params of errorParams(sf, zod).reverse()) {
      const names = params.dropped.map(p => p.getName()).join(', ');
      const why = notAlike(params, zod);
      if (why !== undefined) {
        const instead = [...new Set(params.dropped.map(p => DROPPED_PARAMS[p.getName()]!))].join('; ');
        diagnostics.push(
          leftover(
            params.dropped[0]!,
            `${names}: zod 4, which SDK 2.x needs, ${instead}; not written so here: ${why}; then remove this marker`,
          ),
        );
        continue;
      }
      const line = params.object.getStartLineNumber();
      const factory = params.call.getExpression().getText();
      const written = zod4Params(params.object);
      const same = written.startsWith('{ message')
        ? 'zod 3 gave message over them, and zod 4 still takes message'
        : "the function gives an undefined input and an input of another type the messages zod 3 gave them (undefined: zod's own)";
      params.object.replaceWithText(written);
      diagnostics.push(
        finding(sf, line, 'info', `${names} of ${factory}() written as ${written}: zod 4, which SDK 2.x needs, dropped them; ${same}`),
      );
    }
    return { changesCount: diagnostics.filter(d => !d.insertComment).length, diagnostics };
  },
};
