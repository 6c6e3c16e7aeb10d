/**
 * A worker thread's part of a run (src/parallel.ts): one group through upgrade, analysis and rewrite.
 * Everything in and out is plain data.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { migrateGroup, type MigrateOptions, type SourceInput, type StateModules } from './pipeline.js';

export interface GroupJob {
  candidates: SourceInput[];
  state: StateModules;
  options: MigrateOptions;
}

const job = workerData as GroupJob;
try {
  parentPort!.postMessage({ ok: true, result: migrateGroup(job.candidates, job.state, job.options) });
} catch (error) {
  parentPort!.postMessage({ ok: false, message: (error as Error)?.stack ?? String(error) });
}
