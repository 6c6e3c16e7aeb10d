/**
 * Analysis: from a ts-morph project to one plan per file and the site lines of the report.
 *
 * Each request to the client is found (src/analysis/sites.ts), followed up to the handlers that may run it
 * (src/find/reach.ts), and, when a tools/call, prompts/get or resources/read handler may, asked through
 * the requestState module where it is written; the registrations of those handlers make them resumable,
 * and the work they do before a question is journaled (src/effects). Whatever cannot ask is marked with
 * why. The server constructions, and the stdio and HTTP entries that serve them, are planned beside. Each
 * of these is a unit of its own, run in the order of ANALYSES (src/analysis/units/index.ts).
 */
import type { CallExpression, Node, Project } from 'ts-morph';
import { isEmptyPlan, type FilePlan } from '../plan.js';
import type { SiteReport } from '../report.js';
import { Reacher, type HandlerReached } from '../find/reach.js';
import { analysing, servingFiles, type AnalysisOptions, type AnalysisRun, type AnalysisUnit } from './analysisRun.js';
import type { UnitTrace } from '../unitTrace.js';
import { Recorder } from './recorder.js';
import { ANALYSES } from './units/index.js';

export type { AnalysisOptions } from './analysisRun.js';

export interface ProjectAnalysis {
  plans: FilePlan[];
  sites: SiteReport[];
  notes: string[];
}

export function analyzeProject(project: Project, options: AnalysisOptions): ProjectAnalysis {
  const run: AnalysisRun = {
    project,
    options,
    r: new Recorder(options),
    reacher: new Reacher(project.getSourceFiles()),
    handlers: new Map<CallExpression, HandlerReached>(),
    asks: new Set<Node>(),
  };
  const traced = options.trace ? tracing(run, options.trace) : (_: string, work: () => void) => work();
  for (const step of steps(ANALYSES)) {
    if (!Array.isArray(step)) traced(step.id, () => step.apply(run));
    else
      for (const sf of servingFiles(options)) analysing(sf, run.r, () => step.forEach(unit => traced(unit.id, () => unit.apply(run, sf))));
  }
  const { r } = run;
  return { plans: [...r.plans.values()], sites: r.sites, notes: r.notes };
}

type FileUnit = Extract<AnalysisUnit, { each: 'serving-file' }>;
type RunUnit = Exclude<AnalysisUnit, FileUnit>;

/**
 * The units in order, those of each serving file that stand together joined: they run file by file, all of them
 * in one file before the next, so that what each records in a file (its markers, its notes) keeps their order.
 */
function steps(units: readonly AnalysisUnit[]): (RunUnit | FileUnit[])[] {
  const out: (RunUnit | FileUnit[])[] = [];
  for (const unit of units) {
    const last = out.at(-1);
    if (unit.each !== 'serving-file') out.push(unit);
    else if (Array.isArray(last)) last.push(unit);
    else out.push([unit]);
  }
  return out;
}

/** Runs a unit's work, then tells `trace` the files whose plan, site lines or notes it changed. */
function tracing(run: AnalysisRun, trace: UnitTrace): (unit: string, work: () => void) => void {
  const files = [...new Set([...run.options.files, ...servingFiles(run.options)])];
  const recorded = () =>
    new Map(
      files.map(sf => {
        const shown = run.r.rel(sf);
        const sites = run.r.sites.filter(s => s.file === shown);
        const notes = run.r.notes.filter(n => n.startsWith(`${shown}:`));
        const plan = run.r.plans.get(sf);
        return [sf.getFilePath(), JSON.stringify([plan && !isEmptyPlan(plan) ? plan : null, sites, notes])];
      }),
    );
  return (unit, work) => {
    const before = recorded();
    work();
    for (const [file, now] of recorded()) if (before.get(file) !== now) trace('analysis', unit, file);
  };
}
