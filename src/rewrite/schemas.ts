/**
 * A requested schema written once. An elicitation's schema is sent in the phase that asks and
 * checked again in the phase that reads the answer (`elicitResult(ctx, 'answer', schema)`): printed
 * in both places, a long schema would be there twice. One that reads nothing of the handler (a
 * literal of literals, which is all the analysis repeats) is declared once as a module-level const
 * before the statement holding the handler, and both places name it; identical schemas of one file
 * share it. A schema the analysis does not repeat (one that reads the handler's values) is printed
 * once already, in the request.
 */
import { ts } from 'ts-morph';
import type { HandlerPlan, RequestPlan } from '../plan.js';
import { nameAllocator } from '../analysis/names.js';

/** A request whose schema can be declared apart: its handler, and its schema's text as written at the top level. */
export interface SchemaSite {
  handler: HandlerPlan;
  request: RequestPlan;
  text: string;
}

export interface SchemaDeclaration {
  name: string;
  /** The schema's text at the top level. */
  text: string;
  /** Where the first handler using it starts: the declaration goes before the top-level statement holding it. */
  before: number;
}

export interface DeclaredSchemas {
  /** The const each request's schema is read from. */
  names: Map<RequestPlan, string>;
  declarations: SchemaDeclaration[];
}

/** Keys that say nothing of what is asked (the analysis's defaults, and the usual names of an answer). */
const GENERIC_KEYS = new Set(['answer', 'result', 'response', 'reply', 'res', 'elicitation', 'input', 'value', 'data', 'out', 'output']);

/** A key that names nothing the user wrote: a usual name of an answer, a letter or two, or a temporary of the rewrite (`mcpAwait1`). */
function generic(key: string): boolean {
  return GENERIC_KEYS.has(key) || key.length < 3 || /^mcp[A-Z]/.test(key);
}

/** Whether a request's schema can be declared apart: a literal the analysis repeats, written as the value of `requestedSchema` in its params. */
export function canDeclareApart(r: RequestPlan): boolean {
  return r.schemaText !== undefined && r.schemaText.startsWith('{') && r.paramsText !== undefined && schemaAt(r.paramsText, r.schemaText) !== undefined;
}

/** The params with their schema replaced by the const's name (unchanged when the schema is not there). */
export function paramsNaming(paramsText: string, schemaText: string, name: string): string {
  const at = schemaAt(paramsText, schemaText);
  return at === undefined ? paramsText : paramsText.slice(0, at) + name + paramsText.slice(at + schemaText.length);
}

function schemaAt(paramsText: string, schemaText: string): number | undefined {
  for (const m of paramsText.matchAll(/\brequestedSchema\s*:\s*/g)) {
    const at = m.index! + m[0].length;
    if (paramsText.startsWith(schemaText, at)) return at;
  }
  return undefined;
}

/**
 * One const per distinct schema, never a name the file has. Identical schemas of several tools share one
 * when a name fits them all (the answer's, or what the form asks); else each tool has its own.
 */
export function declaredSchemas(sites: SchemaSite[], taken: Iterable<string>): DeclaredSchemas {
  const byText = new Map<string, SchemaSite[]>();
  for (const site of [...sites].sort((a, b) => a.handler.fn.start - b.handler.fn.start)) byText.set(site.text, [...(byText.get(site.text) ?? []), site]);
  const groups: { name: string; sites: SchemaSite[] }[] = [];
  for (const group of byText.values()) {
    const shared = sharedName(group);
    if (shared) groups.push({ name: shared, sites: group });
    else for (const tool of new Set(group.map(s => toolName(s.handler)))) groups.push({ name: '', sites: group.filter(s => toolName(s.handler) === tool) });
  }
  const allocate = nameAllocator(taken);
  const names = new Map<RequestPlan, string>();
  const declarations: SchemaDeclaration[] = [];
  for (const group of groups.sort((a, b) => a.sites[0]!.handler.fn.start - b.sites[0]!.handler.fn.start)) {
    const name = allocate(group.name || toolSchemaName(group.sites, sites));
    for (const site of group.sites) names.set(site.request, name);
    declarations.push({ name, text: group.sites[0]!.text, before: group.sites[0]!.handler.fn.start });
  }
  return { names, declarations };
}

/** `checkSchema` for answers all named `check`; for a schema several tools share under other names, from what it asks (`nameSchema`). */
function sharedName(group: SchemaSite[]): string | undefined {
  const keys = new Set(group.map(s => s.request.key.replace(/\d+$/, '')));
  const [key] = keys;
  if (keys.size === 1 && !generic(key!)) return `${identifier(key!)}Schema`;
  const tools = new Set(group.map(s => toolName(s.handler)));
  if (tools.size === 1 && [...tools][0] !== undefined) return undefined;
  const asked = askedProperties(group[0]!.text);
  return asked.length === 1 ? `${identifier(asked[0]!)}Schema` : undefined;
}

/** `confirmDeleteSchema` for the one schema of tool `confirm-delete`, `confirmDeleteAnswerSchema` where it has several. */
function toolSchemaName(group: SchemaSite[], all: SchemaSite[]): string {
  const tool = toolName(group[0]!.handler);
  const key = group.map(s => s.request.key.replace(/\d+$/, '')).find(k => !/^mcp[A-Z]/.test(k)) ?? 'form';
  if (tool === undefined) return `${identifier(key)}Schema`;
  const ofTool = new Set(all.filter(s => toolName(s.handler) === tool).map(s => s.text));
  return ofTool.size > 1 ? `${identifier(`${tool} ${key}`)}Schema` : `${identifier(tool)}Schema`;
}

/** The name a handler is registered under, when it is written as a string. */
function toolName(h: HandlerPlan): string | undefined {
  const m = /^(['"`])([^'"`$\\]*)\1$/.exec(h.nameText.trim());
  return m && /[A-Za-z]/.test(m[2]!) ? m[2] : undefined;
}

/** camelCase words (`confirm-delete` → `confirmDelete`), starting with a letter. */
function identifier(words: string): string {
  const parts = words.split(/[^A-Za-z0-9]+/).filter(Boolean);
  const name = parts.map((p, i) => (i === 0 ? p[0]!.toLowerCase() + p.slice(1) : p[0]!.toUpperCase() + p.slice(1))).join('');
  return /^[A-Za-z]/.test(name) ? name : `form${name[0]?.toUpperCase() ?? ''}${name.slice(1)}`;
}

/** The names under `properties` in a schema literal. */
function askedProperties(text: string): string[] {
  const file = ts.createSourceFile('schema.ts', `(${text})`, ts.ScriptTarget.Latest);
  const statement = file.statements[0];
  let literal: ts.Expression | undefined = statement && ts.isExpressionStatement(statement) ? statement.expression : undefined;
  while (literal && ts.isParenthesizedExpression(literal)) literal = literal.expression;
  if (!literal || !ts.isObjectLiteralExpression(literal)) return [];
  const properties = literal.properties.find(p => ts.isPropertyAssignment(p) && p.name.getText(file).replace(/['"]/g, '') === 'properties');
  if (!properties || !ts.isPropertyAssignment(properties) || !ts.isObjectLiteralExpression(properties.initializer)) return [];
  return properties.initializer.properties.flatMap(p => (p.name ? [p.name.getText(file).replace(/['"]/g, '')] : []));
}
