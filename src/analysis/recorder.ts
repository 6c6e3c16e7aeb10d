/**
 * What one analysis records as it goes: one plan per file (plain data, src/plan.ts), the report's site lines
 * and its notes. Every unit of the analysis (src/analysis/units) records through it, so a site found twice is
 * reported once and a site left is marked in its file as it is reported.
 */
import path from 'node:path';
import { Node, SyntaxKind, type SourceFile } from 'ts-morph';
import { emptyPlan, type FilePlan } from '../plan.js';
import { shownPath, type SiteReport } from '../report.js';
import type { FoundCause } from '../tables/causes.js';
import { COMMONJS_EXPORTS } from '../triggers.js';
import { loopHead } from '../effects/index.js';
import { V2_SERVER_MODULE } from './mcpSymbols.js';
import { descendantsOfKind } from './descendants.js';

export const MARKER_PREFIX = 'mcp-migrate:';

/** A site line as the analysis finds it: a site left (marked or skipped) is reported with its cause. */
type SiteEntry = Omit<SiteReport, 'file' | 'line' | 'column' | 'cause' | 'causeId' | 'outcome'> &
  ({ outcome: 'rewritten'; cause?: undefined } | { outcome: 'marked' | 'skipped'; cause: FoundCause });

/** What one analysis records as it goes: the plans by file, the report's site lines, its notes. */
export class Recorder {
  readonly plans = new Map<SourceFile, FilePlan>();
  readonly sites: SiteReport[] = [];
  readonly notes: string[] = [];

  constructor(private readonly options: RecorderOptions) {}

  planFor(sf: SourceFile): FilePlan {
    let plan = this.plans.get(sf);
    if (!plan) this.plans.set(sf, (plan = emptyPlanOf(sf, this.options.stateModuleFor(sf.getFilePath()))));
    return plan;
  }

  rel(sf: SourceFile): string {
    return shownPath(this.options.cwd, sf.getFilePath());
  }

  /** A site line of the report for `node`, marked in its file when `outcome` is 'marked'. */
  site(node: Node, { cause, ...entry }: SiteEntry): void {
    const sf = node.getSourceFile();
    const { line, column } = sf.getLineAndColumnAtPos(node.getStart());
    const report: SiteReport = { file: this.rel(sf), line, column, ...entry, ...(cause ? { cause: cause.text, causeId: cause.id } : {}) };
    if (this.sites.some(s => s.file === report.file && s.line === line && s.column === column && s.reason === report.reason)) return;
    if (entry.outcome === 'marked') addMarker(this.planFor(sf), node, entry.reason);
    this.sites.push(report);
  }

  /** A note that names a line of a file. */
  note(node: Node, text: string): void {
    const sf = node.getSourceFile();
    const note = `${this.rel(sf)}:${sf.getLineAndColumnAtPos(node.getStart()).line}: ${text}`;
    if (!this.notes.includes(note)) this.notes.push(note);
  }
}

interface RecorderOptions {
  /** The run's root: the report names files relative to it. */
  cwd: string;
  /** Absolute path of the requestState module a file's handlers import. */
  stateModuleFor: (file: string) => string;
}

export function location(node: Node, r: Recorder): Pick<SiteReport, 'file' | 'line' | 'column'> {
  const sf = node.getSourceFile();
  const { line, column } = sf.getLineAndColumnAtPos(node.getStart());
  return { file: r.rel(sf), line, column };
}

function emptyPlanOf(sf: SourceFile, stateModulePath: string): FilePlan {
  return emptyPlan(sf.getFilePath(), {
    stateModuleSpecifier: moduleSpecifier(sf, stateModulePath),
    sdkModule: V2_SERVER_MODULE,
    commonJs: isCommonJs(sf),
  });
}

export function callText(node: Node): string {
  // A loop marked for how often it asks: its head (`for (const item of items)`).
  if (Node.isIterationStatement(node)) return loopHead(node);
  const text = node.getText().replace(/\s+/g, ' ');
  const open = text.indexOf('(');
  return open > 0 ? `${text.slice(0, open)}(...)` : text;
}

function moduleSpecifier(sf: SourceFile, target: string): string {
  let spec = path.relative(path.dirname(sf.getFilePath()), target).split(path.sep).join('/');
  if (!spec.startsWith('.')) spec = `./${spec}`;
  const withoutExt = spec.replace(/\.(ts|js|mjs|cjs|mts|cts)$/, '');
  const relImports = sf
    .getImportDeclarations()
    .map(d => d.getModuleSpecifierValue())
    .filter(s => s.startsWith('.'));
  const extensionless = relImports.length > 0 && relImports.every(s => !/\.[cm]?[jt]s$/.test(s));
  const ext = path.extname(target);
  if (ext === '.cjs' || ext === '.mjs') return withoutExt + ext;
  return extensionless ? withoutExt : `${withoutExt}.js`;
}

function isCommonJs(sf: SourceFile): boolean {
  if (sf.getFilePath().endsWith('.cjs') || sf.getFilePath().endsWith('.cts')) return true;
  if (sf.getImportDeclarations().length > 0) return false;
  // A module that only exports (`module.exports = { confirm }`) is CommonJS as much as one that requires.
  return (
    COMMONJS_EXPORTS.test(sf.getFullText()) ||
    descendantsOfKind(sf, SyntaxKind.CallExpression).some(c => c.getExpression().getText() === 'require')
  );
}

function addMarker(plan: FilePlan, node: Node, reason: string): void {
  const isStatement = (a: Node) => Node.isStatement(a) && !Node.isBlock(a);
  let statement = isStatement(node) ? node : (node.getFirstAncestor(isStatement) ?? node);
  // A comment goes on a line of its own: for a statement that shares its first line with an
  // enclosing one (`run(async () => { await ... });`), above the enclosing one.
  const source = node.getSourceFile().getFullText();
  const startsLine = (n: Node) => /^[ \t]*$/.test(source.slice(source.lastIndexOf('\n', n.getStart() - 1) + 1, n.getStart()));
  // The statement's parent may itself be the statement (a braceless `if (x) await ...` body, a label): it is the one above.
  const enclosing = (n: Node): Node | undefined => {
    const parent = n.getParent();
    return parent && (isStatement(parent) ? parent : parent.getFirstAncestor(isStatement));
  };
  for (let up = enclosing(statement); up && !startsLine(statement); up = enclosing(up)) statement = up;
  const at = statement.getStart();
  const text = `${MARKER_PREFIX} ${reason}`;
  if (plan.markers.some(m => m.at === at && m.text === text)) return;
  // Idempotence: a marker written by an earlier run is left as it is. The inliner's marker on a helper call it
  // did not inline ("... is not inlined: ...") says nothing of another request in the statement: this one goes above it too.
  const already = statement
    .getLeadingCommentRanges()
    .some(c => c.getText().includes(text) || (c.getText().includes(MARKER_PREFIX) && !/\bis not inlined: /.test(c.getText())));
  if (already) return;
  plan.markers.push({ at, text });
}
