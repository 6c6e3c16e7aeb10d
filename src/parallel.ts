/**
 * A run's analysis across cores: the candidates are split into groups closed under their imports
 * (src/partition.ts), one group is migrated in this thread and the others in worker threads, and the
 * run is finished once over all of them (src/pipeline.ts finishRun). The result is the one a single
 * thread gives: the tests compare both on the same tree.
 */
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { partitionCandidates } from './partition.js';
import type { GroupResult, MigrateOptions, MigrateResult, SourceInput } from './pipeline.js';
import type { GroupJob } from './pipelineWorker.js';
import { MAX_THREADS, MIN_FILES_PER_THREAD } from './threadLimits.js';
import { worthAnalysing } from './triggers.js';

export { MAX_THREADS, MIN_FILES_PER_THREAD };

/** How many threads a run with `candidates` files to analyse uses when not told. */
export function defaultThreads(candidates: number): number {
  const cores = typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length;
  return Math.max(1, Math.min(cores, MAX_THREADS, Math.floor(candidates / MIN_FILES_PER_THREAD)));
}

/** `migrateSources` over `threads` threads (`undefined`: defaultThreads). */
export async function migrateInThreads(files: SourceInput[], options: MigrateOptions, threads?: number): Promise<MigrateResult> {
  const pipeline = import('./pipeline.js');
  const candidates = worthAnalysing(files);
  const groups = partitionCandidates(candidates, threads ?? defaultThreads(candidates.length));
  const { finishRun, migrateGroup, migrateSources, placeStateModules } = await pipeline;
  // A trace is a function of this thread's, which a worker could not be handed.
  if (groups.length < 2 || options.onlyHandlerAt || options.traceUnits) return migrateSources(files, options);

  const state = placeStateModules(options.stateModuleCandidates ?? candidates, options.cwd);
  const [own, ...others] = groups;
  const failures: string[] = [];
  const inWorkers = others.map(group =>
    runInWorker({ candidates: group, state, options }).catch((error: Error) => {
      // A worker that fails (out of memory, a crash) costs time, not the result: its group runs here.
      failures.push(
        `an analysis thread failed (${error.message.split('\n')[0]}); its ${group.length} files were analysed in the main thread`,
      );
      return migrateGroup(group, state, options);
    }),
  );
  const here = migrateGroup(own!, state, options);
  const result = finishRun([here, ...(await Promise.all(inWorkers))], files, state, options);
  result.report.notes.push(...failures);
  return result;
}

function runInWorker(job: GroupJob): Promise<GroupResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./pipelineWorker.js', import.meta.url), { workerData: job });
    let settled = false;
    worker.once('message', (m: { ok: true; result: GroupResult } | { ok: false; message: string }) => {
      settled = true;
      if (m.ok) resolve(m.result);
      else reject(new Error(m.message));
      void worker.terminate();
    });
    worker.once('error', error => {
      if (!settled) reject(error);
      settled = true;
    });
    worker.once('exit', code => {
      if (!settled) reject(new Error(`worker exited with code ${code}`));
      settled = true;
    });
  });
}
