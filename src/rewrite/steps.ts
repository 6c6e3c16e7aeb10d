/**
 * A handler's steps: the union type naming each round it waits for with the locals that round carries,
 * and the types those locals (and the loop variables a request reads) have in it.
 */
import type { CarriedLocal, HandlerPlan, ResponseReader } from '../plan.js';
import type { AnyNode, RewriteContext } from './context.js';
import { propertyKey } from './text.js';

/** The type each reader returns: a carried answer's type in its step. */
const READER_RESULT: Record<ResponseReader, string> = { elicitResult: 'ElicitResult', samplingResult: 'CreateMessageResult', rootsResult: 'ListRootsResult' };

/** A local's field in its step: its name, but for a local named `step`, which the step's name holds. */
export function fieldName(l: CarriedLocal): string {
  return l.name === 'step' ? 'stepValue' : l.name;
}

/** The union of a handler's steps is named from its tool (`deploy` → `DeployStep`), or `Step` when the name is not a literal. */
export function stepTypeName(nameText: string): string {
  const literal = /^(['"`])([^'"`$\\]*)\1$/.exec(nameText.trim())?.[2];
  const words = literal?.split(/[^A-Za-z0-9]+/).filter(Boolean).map(w => w[0]!.toUpperCase() + w.slice(1)) ?? [];
  const name = `${words.join('')}Step`;
  return /^[A-Za-z]/.test(name) ? name : 'Step';
}

/**
 * The handler's steps as a union type, each with the locals it carries and their types:
 * `type DeployStep =\n  | { step: 'awaiting-review'; note: string }\n  | ...;` (one line for one step).
 */
export function stepUnion(cx: RewriteContext, h: HandlerPlan, name: string, indent: string): string[] {
  const members = h.suspensions.map(s => {
    const fields = s.live.filter(l => !l.answered).map(l => `; ${propertyKey(fieldName(l))}: ${fieldType(cx, l)}`);
    return `{ step: ${cx.stringLiteral(s.step)}${fields.join('')} }`;
  });
  if (members.length === 1) return [`${indent}type ${name} = ${members[0]};`];
  return [`${indent}type ${name} =`, ...members.map((m, i) => `${indent}${cx.unit}| ${m}${i === members.length - 1 ? ';' : ''}`)];
}

/** A carried local's type in its step: its own type text, what the reader of its round returns, or the type the analysis wrote out. */
export function fieldType(cx: RewriteContext, l: CarriedLocal): string {
  if (l.typeText !== undefined) return l.typeText;
  if (l.stepType && 'reader' in l.stepType) return cx.useType(READER_RESULT[l.stepType.reader]);
  return l.stepType?.text ?? 'any';
}

/**
 * The type a request builder's parameter gets for a body local: the type it has in the handler's steps,
 * where every carried local of that name has the same; none when it is not carried (or differs).
 */
export function carriedType(cx: RewriteContext, h: HandlerPlan, name: string): string | undefined {
  // JavaScript: only a type the file wrote (JSDoc); the step types are TypeScript's and import from the SDK.
  const typed = (l: CarriedLocal): boolean => l.typeText !== undefined || (cx.isTs && l.stepType !== undefined);
  const types = new Set(h.suspensions.flatMap(s => s.live.filter(l => l.name === name && typed(l)).map(l => fieldType(cx, l))));
  return types.size === 1 ? [...types][0] : undefined;
}

/**
 * The type of a for...in or for...of variable (a request in the loop reads it): `string` for a key, the
 * element type of the carried snapshot for an item (for a for await too: a snapshot that travels as JSON
 * holds no promise, so awaiting an item gives the item); none for a pattern.
 */
export function loopVariableType(cx: RewriteContext, h: HandlerPlan, name: string): string | undefined {
  const types = new Set<string | undefined>();
  for (const loop of h.loops) {
    if (loop.kind !== 'for-in' && loop.kind !== 'for-of' && loop.kind !== 'for-await-of') continue;
    const left = (cx.at(loop.range, 'loop').node as AnyNode).left;
    const id = left?.type === 'VariableDeclaration' ? left.declarations[0]?.id : undefined;
    if (id?.type !== 'Identifier' || id.name !== name) continue;
    const items = loop.items === undefined ? undefined : carriedType(cx, h, loop.items);
    const element = items === undefined ? undefined : /^(?:readonly )?(.+)\[\]$/.exec(items)?.[1];
    types.add(loop.kind === 'for-in' ? 'string' : element !== undefined && !/\b(Promise|PromiseLike)\b/.test(element) ? element : undefined);
  }
  return types.size === 1 ? [...types][0] : undefined;
}

/** Names declared inside a function body (variables, functions, classes, parameters of inner functions, catch bindings). */
export function declaredNames(cx: RewriteContext, body: AnyNode): Set<string> {
  const { j } = cx;
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
