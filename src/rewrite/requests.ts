/**
 * Requests printed once: where the resumed code reaches the same round from several phases, its request would
 * be printed in each. Such a request is declared once instead, as a small builder at the top of the handler
 * (`const askForSummary = () => inputRequired.createMessage({ ... });`, the SDK examples' idiom), called
 * wherever the round is asked. The phases are printed with a placeholder per request; `resolve` then puts the
 * builder's call, or the request itself where it is printed once, in its place.
 */
import { ts } from 'ts-morph';
import type { RequestPlan } from '../plan.js';

export interface RequestSharingOptions {
  /** The request as printed inline today, its params re-indented to `indent`. */
  inline: (r: RequestPlan, indent: string) => string;
  /** Names declared inside the handler's body: a request reading one gets it as a parameter. */
  bodyNames: ReadonlySet<string>;
  /** A body local's type for a parameter (TypeScript); `undefined` where none can be written. */
  localType: (name: string) => string | undefined;
  allocate: (base: string) => string;
  isTs: boolean;
  /** A lone arrow parameter as the file writes it (`x` or `(x)`). */
  arrowParam: (name: string) => string;
  /** The indentation the builders are declared at (the handler body's). */
  indent: string;
}

interface Builder {
  name: string;
  params: { name: string; type?: string }[];
}

// NUL characters, which no source text the phases copy holds, so the placeholder cannot be taken for code.
const PLACEHOLDER = /\u0000request(\d+)\u0000/g;

export function requestSharing(options: RequestSharingOptions) {
  const sites: { request: RequestPlan; indent: string }[] = [];
  return {
    /** Stands for the request in a phase's text; `indent` is the line's the request starts on. */
    placeholder(request: RequestPlan, indent: string): string {
      sites.push({ request, indent });
      return `\u0000request${sites.length - 1}\u0000`;
    },
    /** The builders to declare (lines at `indent`), and the phases' lines with every placeholder replaced. */
    resolve(lines: string[]): { declarations: string[]; lines: string[] } {
      const printed = new Map<RequestPlan, number>();
      for (const line of lines) {
        for (const m of line.matchAll(PLACEHOLDER)) {
          const r = sites[Number(m[1])]!.request;
          printed.set(r, (printed.get(r) ?? 0) + 1);
        }
      }
      const builders = new Map<RequestPlan, Builder>();
      const declarations: string[] = [];
      for (const [r, count] of printed) {
        const builder = count > 1 ? builderFor(r, options) : undefined;
        if (!builder) continue;
        builders.set(r, builder);
        declarations.push(declaration(r, builder, options));
      }
      const replaced = lines.map(line =>
        line.replace(PLACEHOLDER, (_, i: string) => {
          const site = sites[Number(i)]!;
          const builder = builders.get(site.request);
          return builder ? `${builder.name}(${builder.params.map(p => p.name).join(', ')})` : options.inline(site.request, site.indent);
        }),
      );
      return { declarations, lines: replaced };
    },
  };
}

/** `askForSummary`, taking the body's locals the request reads; none where a request has nothing to declare or cannot be moved. */
function builderFor(r: RequestPlan, options: RequestSharingOptions): Builder | undefined {
  // A builder's parameter is a copy: a change the arguments make (`++asked`) would not reach the handler's local.
  if (r.builder === 'listRoots' || r.paramsText === undefined || r.changesLocals) return undefined;
  const names = referencedNames(r.paramsText);
  if (!names) return undefined;
  const params: Builder['params'] = [];
  for (const name of names) {
    if (!options.bodyNames.has(name)) continue;
    const type = options.localType(name);
    if (options.isTs && type === undefined) return undefined;
    params.push({ name, type });
  }
  return { name: options.allocate(`askFor${pascalCase(r.key)}`), params };
}

function declaration(r: RequestPlan, builder: Builder, options: RequestSharingOptions): string {
  const { indent } = options;
  const names = builder.params.map(p => (options.isTs ? `${p.name}: ${p.type}` : p.name));
  const params = names.length === 1 && !options.isTs ? options.arrowParam(names[0]!) : `(${names.join(', ')})`;
  const tags = options.isTs ? [] : builder.params.filter(p => p.type !== undefined).map(p => `@param {${p.type}} ${p.name}`);
  const jsDoc = tags.length === 0 ? [] : tags.length === 1 ? [`${indent}/** ${tags[0]} */`] : [`${indent}/**`, ...tags.map(t => `${indent} * ${t}`), `${indent} */`];
  return [...jsDoc, `${indent}const ${builder.name} = ${params} => ${options.inline(r, indent)};`].join('\n');
}

function pascalCase(key: string): string {
  const words = key.split(/[^A-Za-z0-9]+/).filter(Boolean);
  const name = words.map(w => w[0]!.toUpperCase() + w.slice(1)).join('');
  return /^[A-Za-z]/.test(name) ? name : `Request${name}`;
}

/**
 * The names an expression reads, in order of first use (property names left out), or `undefined` when it
 * cannot move into a builder as it is: it awaits or yields, or declares functions or classes of its own.
 */
export function referencedNames(text: string): string[] | undefined {
  const sf = ts.createSourceFile('request.ts', `(${text});`, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const names: string[] = [];
  let movable = true;
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) || ts.isClassLike(node) || ts.isAwaitExpression(node) || ts.isYieldExpression(node)) movable = false;
    if (ts.isIdentifier(node) && !isPropertyName(node) && !names.includes(node.text)) names.push(node.text);
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return movable && (sf as { parseDiagnostics?: unknown[] }).parseDiagnostics?.length === 0 ? names : undefined;
}

function isPropertyName(node: ts.Identifier): boolean {
  const parent = node.parent;
  if (ts.isPropertyAccessExpression(parent)) return parent.name === node;
  if (ts.isQualifiedName(parent)) return parent.right === node;
  if (ts.isPropertyAssignment(parent) || ts.isJsxAttribute(parent)) return parent.name === node;
  return false;
}
