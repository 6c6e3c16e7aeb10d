/**
 * Where the schemas declared apart (src/rewrite/schemas.ts) are read from and written to: each schema's
 * text at the top level, and its const before the top-level statement holding the first handler that asks it.
 */
import type { FilePlan } from '../plan.js';
import type { AnyNode, RewriteContext } from './context.js';
import { awaitsAtTopLevel } from './flow.js';
import { canDeclareApart, type SchemaDeclaration, type SchemaSite } from './schemas.js';
import { columnIndent, reindent } from './text.js';

/** The requests whose schemas are declared apart, each schema's text moved to the top level. */
export function schemaSites(source: string, plan: FilePlan): SchemaSite[] {
  return plan.handlers.flatMap(handler =>
    handler.suspensions.flatMap(s =>
      s.requests.filter(canDeclareApart).map(request => {
        const at = source.indexOf(request.paramsText!, handler.fn.start) + request.paramsText!.indexOf(request.schemaText!);
        return { handler, request, text: reindent(request.schemaText!, columnIndent(source, at), '') };
      })
    )
  );
}

/** Each schema declared apart, before the top-level statement holding the first handler that asks it. */
export function declareSchemas(cx: RewriteContext, declarations: SchemaDeclaration[]): void {
  if (declarations.length === 0) return;
  const { isTs } = cx;
  const end = cx.style.semicolons ? ';' : '';
  const type = `${isTs ? cx.useType('ElicitRequestFormParams') : `import('${cx.modules.sdk}').ElicitRequestFormParams`}['requestedSchema']`;
  const body = cx.programNode().body as AnyNode[];
  const byHolder = new Map<AnyNode, string[]>();
  for (const d of declarations) {
    const holder = schemaHolder(body, d.before);
    if (!holder) throw new Error(`mrtr transform: cannot find the statement holding the handler at offset ${d.before} in ${cx.plan.file}`);
    // Typed: out of the request, the literal's `type: 'object'` would widen to a string the request's type refuses.
    const text = isTs ? `const ${d.name}: ${type} = ${d.text}${end}` : `/** @type {${type}} */\nconst ${d.name} = ${d.text}${end}`;
    byHolder.set(holder, [...(byHolder.get(holder) ?? []), text]);
  }
  // Parsed together, the consts before one statement keep a line each.
  for (const [holder, texts] of byHolder) body.splice(body.indexOf(holder), 0, ...cx.parseStatements(texts.join('\n')));
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
