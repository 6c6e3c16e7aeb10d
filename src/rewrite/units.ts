/**
 * The rewrite's units, as the official codemod's transforms and the upgrade's repairs are: each one kind of edit
 * a file's plan asks for, in a module of its own, applied to the file's tree in the order of REWRITES (the
 * comment on each entry says why it stands there). transforms/mrtr.ts applies them and prints the file.
 */
import type { RewriteContext } from './context.js';
import { rewriteLogging } from './logging.js';
import { addMarkers } from './markers.js';
import { rewriteReplay } from './replay.js';
import { rewriteHttpEntries } from './httpEntries.js';
import { wireServers } from './serverWiring.js';
import { rewriteStdioEntries } from './stdioEntries.js';

export interface Rewrite {
  /** Stable, as a repair's id is. */
  id: string;
  /** What it rewrites, in a few words. */
  name: string;
  apply: (cx: RewriteContext) => void;
}

export const REWRITES: readonly Rewrite[] = [
  // First: a marker only attaches a comment, so every later lookup of the plan's ranges stays valid.
  { id: 'markers', name: 'a `// mcp-migrate:` marker above each site left', apply: addMarkers },
  // The handlers: the innermost of its wraps first, so that a wrap inside another is carried along with it.
  {
    id: 'replay',
    name: 'registrations made resumable, requests asked, work journaled, capabilities read per request',
    apply: rewriteReplay,
  },
  // After the replay's wraps: a log call's arguments are moved into its new call, where their old paths no longer lead.
  { id: 'logging', name: "log messages sent with the request's own context", apply: rewriteLogging },
  // Then the wiring around the handlers: server constructions and serving entries, which no handler's edit contains.
  { id: 'server-wiring', name: 'servers constructed with requestState: { verify }', apply: wireServers },
  { id: 'stdio-entries', name: 'stdio entries served by serveStdio', apply: rewriteStdioEntries },
  { id: 'http-entries', name: 'HTTP entries moved to createMcpHandler', apply: rewriteHttpEntries },
];
