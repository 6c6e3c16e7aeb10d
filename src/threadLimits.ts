/**
 * How many threads a run's analysis may use: read by the command line's help text, which must not load
 * the analysis (src/parallel.ts imports the partitioner, and with it the compiler).
 */

/**
 * Below this many files to analyse per thread, a worker's start (its own parser, checker and SDK
 * types, and the collector and compiler threads each adds) costs more than it saves. Measured on 2
 * cores (npm run bench trees of 10k files): 100 servers, one thread 6.4 s against two 7.4 s; 400,
 * even (15.6 s, 15.2 s); 1,000, one 34 s against two 27 s.
 */
export const MIN_FILES_PER_THREAD = 200;
/** Each thread holds its own type checker with the SDK's types: a few hundred MiB. */
export const MAX_THREADS = 4;
