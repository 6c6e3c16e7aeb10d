/**
 * What the analysis units' tests share: a few files of SDK 1.x code, upgraded and analysed as a run does, and
 * the plan of each shown with every range as the text it covers (in the upgraded text the analysis read), so
 * that a test reads as the code it is about. The plan is plain data (src/plan.ts): these tests need no rewrite.
 */
import path from 'node:path';
import { analyzeProject } from '../../../src/analysis/index.js';
import { analysisProject } from '../../../src/analysis/project.js';
import type { FilePlan } from '../../../src/plan.js';
import type { SiteReport } from '../../../src/report.js';
import { upgradeV1 } from '../../../src/upgrade/index.js';

const REPO = path.resolve(import.meta.dirname, '../../..');

/** Offsets that name the statement starting there: shown as that statement's first line. */
const STATEMENT_OFFSETS = new Set(['at', 'before', 'declareBefore', 'routeBefore']);

export interface Analysed {
  /** The plan of `file` (relative), every range shown as its text; undefined where the analysis planned nothing there. */
  plan(file?: string): Record<string, unknown> | undefined;
  /** The report's site lines, each with `source`: its line of the analysed text, trimmed. */
  sites: (SiteReport & { source: string })[];
  notes: string[];
  /** The units that planned, marked or noted something, in the order they first did, each with the file it did it in. */
  acted: string[];
  /** A file's text as the analysis read it: as the upgrade left it. */
  text(file?: string): string;
}

export interface AnalysedOptions {
  /** Files of the project outside the run (another package of a workspace): there to be imported, not analysed. */
  outside?: Record<string, string>;
  /** Node's own types, which an HTTP entry's request and response need. */
  nodeTypes?: boolean;
}

/**
 * `files` (paths relative to a project under this repository, whose node_modules gives both SDKs) upgraded and
 * analysed as one run: each file a serving file and one to look for requests in. The first is the default file.
 */
export function analysed(files: Record<string, string>, { outside = {}, nodeTypes = false }: AnalysedOptions = {}): Analysed {
  const dir = path.join(REPO, '.tmp', 'analysis-units');
  const upgrade = upgradeV1(Object.entries(files).map(([rel, text]) => ({ path: path.join(dir, rel), text })));
  const texts = new Map(Object.entries(files).map(([rel, text]) => [rel, upgrade.texts.get(path.join(dir, rel)) ?? text]));
  const project = analysisProject({ nodeTypes });
  for (const [rel, text] of Object.entries(outside)) project.createSourceFile(path.join(dir, rel), text, { overwrite: true });
  const sources = [...texts].map(([rel, text]) => project.createSourceFile(path.join(dir, rel), text, { overwrite: true }));
  const acted: string[] = [];
  const analysis = analyzeProject(project, {
    cwd: dir,
    stateModuleFor: () => path.join(dir, 'mcp-migrate-state.ts'),
    files: sources,
    mcpFiles: sources,
    trace: (_stage, unit, file) => {
      const entry = `${unit} ${path.relative(dir, file)}`;
      if (!acted.includes(entry)) acted.push(entry);
    },
  });
  const byFile = new Map(analysis.plans.map(p => [path.relative(dir, p.file), p]));
  const first = Object.keys(files)[0]!;
  return {
    plan: (file = first) => {
      const plan = byFile.get(file);
      return plan && shown(plan, texts.get(file)!);
    },
    sites: analysis.sites.map(site => ({ ...site, source: texts.get(site.file)!.split('\n')[site.line - 1]!.trim() })),
    notes: analysis.notes,
    acted,
    text: (file = first) => texts.get(file)!,
  };
}

/**
 * The plan with its file left out, empty lists dropped, and each range and statement offset shown as the text
 * there (a range over several lines as its first line and an ellipsis).
 */
function shown(plan: FilePlan, text: string): Record<string, unknown> {
  const show = (value: unknown, key?: string): unknown => {
    if (Array.isArray(value)) return value.map(v => show(v));
    if (typeof value === 'number' && key && STATEMENT_OFFSETS.has(key)) return text.slice(value).split('\n')[0];
    if (typeof value !== 'object' || value === null) return value;
    const record = value as Record<string, unknown>;
    if (Object.keys(record).length === 2 && typeof record.start === 'number' && typeof record.end === 'number') {
      const [line, ...more] = text.slice(record.start, record.end).split('\n');
      return more.length > 0 ? `${line} …` : line;
    }
    return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, show(v, k)]));
  };
  const { file: _file, ...rest } = plan;
  return Object.fromEntries(Object.entries(show(rest) as Record<string, unknown>).filter(([, v]) => !(Array.isArray(v) && v.length === 0)));
}
