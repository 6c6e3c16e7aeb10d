/**
 * The analysis's units, as the rewrite's (src/rewrite/units.ts) and the official codemod's transforms are: each
 * one kind of finding, in a module of its own, run in the order of ANALYSES (the comment on each entry says why
 * it stands there). src/analysis/index.ts runs them; each records into the run's plans and report.
 */
import type { AnalysisUnit } from '../analysisRun.js';
import { planCapabilityReads } from './capabilityReads.js';
import { markEraTraps } from './eraTraps.js';
import { planHttpEntries } from './httpEntries.js';
import { planJournaledWork } from './journal.js';
import { markListChanges } from './listChanges.js';
import { planLogMessages } from './logMessages.js';
import { markOninitializedRegistrations } from './oninitialized.js';
import { markRequestsOutsideRun } from './outsideRun.js';
import { planRequests } from './requests.js';
import { planResumableRegistrations } from './resumableRegistrations.js';
import { planServerWiring } from './serverWiring.js';
import { planStdioEntries } from './stdioEntries.js';

export const ANALYSES: readonly AnalysisUnit[] = [
  // First: every later unit reads which handlers ask, and which requests are asked where they are written.
  { id: 'requests', name: 'requests asked where a handler may run them, else marked with why', apply: planRequests },
  { id: 'outside-run', name: "requests the run's handlers reach in files outside the run", apply: markRequestsOutsideRun },
  // Then what the requests unit found: the handlers that ask, and the requests asked in them.
  { id: 'resumable-registrations', name: 'the registrations of the handlers that ask, made resumable', apply: planResumableRegistrations },
  { id: 'journal', name: 'work done before a question journaled, catch and finally blocks guarded', apply: planJournaledWork },
  // The serving side, once it is known whether any handler asks.
  { id: 'server-wiring', name: 'servers constructed with requestState: { verify }', apply: planServerWiring },
  // Then each file that imports the SDK, one after another, each of these in this order in it.
  { id: 'stdio-entries', name: 'stdio entries served by serveStdio', each: 'serving-file', apply: planStdioEntries },
  { id: 'http-entries', name: 'HTTP entries moved to createMcpHandler', each: 'serving-file', apply: planHttpEntries },
  { id: 'capability-reads', name: "client capabilities read from the request's own", each: 'serving-file', apply: planCapabilityReads },
  { id: 'log-messages', name: "log messages sent with the request's own context", each: 'serving-file', apply: planLogMessages },
  { id: 'era-traps', name: 'what else a 2026-07-28 client breaks, marked', each: 'serving-file', apply: markEraTraps },
  {
    id: 'oninitialized',
    name: 'registrations made in oninitialized, marked',
    each: 'serving-file',
    apply: markOninitializedRegistrations,
  },
  // Last: only where the HTTP entries unit moved an entry to createMcpHandler.
  { id: 'list-changes', name: 'list changes a createMcpHandler entry never sends, marked', apply: markListChanges },
];
