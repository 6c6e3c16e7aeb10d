/**
 * A request in a file outside the run (another package of a workspace, the run given a folder) that a
 * handler of the run reaches: it is not migrated, so it is marked where the run's code calls into that
 * file, or at the handler's registration when that call cannot be told. Not for an editor's analysis of one
 * handler (options.onlyHandlerAt).
 */
import { SyntaxKind, type CallExpression, type ImportDeclaration, type Node, type SourceFile } from 'ts-morph';
import type { HandlerReached, Reacher } from '../../find/reach.js';
import { calleesOf } from '../../find/callees.js';
import type { FoundCause } from '../../tables/causes.js';
import type { AnalysisRun } from '../analysisRun.js';
import { enclosingFunction } from '../functions.js';
import { importedSourceFile } from '../project.js';
import { callText } from '../recorder.js';
import { findSites } from '../sites.js';
import { resolveThroughPaths } from '../tsconfigPaths.js';
import { descendantsOfKind } from '../descendants.js';

/** Text a file that makes a request has (a cheap test before its syntax is walked). */
const REQUEST_TEXT = /elicitInput|createMessage|listRoots|sendRequest|\.request\(|\.send\(/;

export function markRequestsOutsideRun({ options, reacher, r }: AnalysisRun): void {
  if (options.onlyHandlerAt) return;
  const inRun = new Set([...options.files, ...(options.mcpFiles ?? [])]);
  for (const sf of importedOutsideRun(inRun)) {
    if (!REQUEST_TEXT.test(sf.getFullText())) continue;
    for (const site of findSites(sf)) {
      if (!site.fn || site.unsupported || site.urlError) continue;
      const reach = site.handedOn ? reacher.ofValue(site.node) : reacher.of(site.fn);
      for (const handler of reach.handlers.filter(h => inRun.has(h.registration.getSourceFile()))) {
        const calls = callsLeavingRun(handler, inRun, reacher);
        const reason = `reaches ${callText(site.node)} in ${r.rel(sf)}, a file outside this run, which is not migrated: on MCP 2026-07-28 ${handler.label} fails there (2025-era clients only); migrate that file too (run mcp-migrate on the files together, e.g. the workspace's root)`;
        const cause: FoundCause = { id: 'request-outside-run', text: 'a request reached in a file outside the run' };
        if (calls.length === 0)
          r.site(handler.registration, {
            kind: site.kind,
            call: callText(handler.registration),
            outcome: 'marked',
            reason: `${handler.label} ${reason}`,
            handler: handler.label,
            shape: 'helper',
            cause,
          });
        for (const call of calls)
          r.site(call, {
            kind: site.kind,
            call: callText(call),
            outcome: 'marked',
            reason: `${call.getExpression().getText()}() ${reason}`,
            handler: handler.label,
            shape: 'helper',
            cause,
          });
      }
    }
  }
}

/** How many files outside the run are followed through imports. */
const MAX_OUTSIDE_FILES = 200;

/** The project's own files (not a package's, not declarations) the run's files import, directly or through each other. */
function importedOutsideRun(inRun: Set<SourceFile>): SourceFile[] {
  const found = new Set<SourceFile>();
  const queue = [...inRun];
  while (queue.length > 0 && found.size < MAX_OUTSIDE_FILES) {
    for (const declaration of queue.shift()!.getImportDeclarations()) {
      const imported = importedSourceFile(declaration) ?? importedThroughPaths(declaration);
      if (!imported || inRun.has(imported) || found.has(imported) || imported.isDeclarationFile() || imported.isInNodeModules()) continue;
      found.add(imported);
      queue.push(imported);
    }
  }
  return [...found];
}

/** A file imported through the importing package's tsconfig.json `paths` (`@shared/ask.js`), which the analysis's own options do not map. */
function importedThroughPaths(declaration: ImportDeclaration): SourceFile | undefined {
  const file = resolveThroughPaths(declaration.getSourceFile().getFilePath(), declaration.getModuleSpecifierValue());
  const project = declaration.getProject();
  return file ? (project.getSourceFile(file) ?? project.addSourceFileAtPathIfExists(file)) : undefined;
}

/** The calls, in the run's files, of a function outside them through which `handler` reaches a request there. */
function callsLeavingRun(handler: HandlerReached, inRun: Set<SourceFile>, reacher: Reacher): CallExpression[] {
  const reaching = reacher.askingFunctions().filter(a => a.reach.handlers.some(h => h.registration === handler.registration));
  const outside = new Set<Node>(reaching.filter(a => !inRun.has(a.fn.getSourceFile())).map(a => a.fn));
  const calls: CallExpression[] = [];
  for (const { fn } of reaching.filter(a => inRun.has(a.fn.getSourceFile()))) {
    for (const call of descendantsOfKind(fn, SyntaxKind.CallExpression)) {
      if (enclosingFunction(call) === fn && calleesOf(call.getExpression()).some(callee => outside.has(callee))) calls.push(call);
    }
  }
  return calls;
}
