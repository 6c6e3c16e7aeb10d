/**
 * What a report line is about (src/report.ts re-exports it; a module of its own so that the tables the report
 * cites can read it): a request of a kind (`elicitation`, `elicitation-url`, `sampling`, `roots`), or
 * `request`: a request channel (`extra.sendRequest`) passed on, whose method is not known;
 * `task`: a request about the client's tasks (SDK 1.x `server.experimental.tasks`), which nothing in 2026-07-28 replaces;
 * `registration`: a tool/prompt/resource registered in `oninitialized`, which 2026-07-28 never runs;
 * `entry`: a serving entry (stdio, Streamable HTTP or SSE), moved to `serveStdio`/`createMcpHandler` or marked;
 * `capabilities`: `getClientCapabilities()`, the connection's capabilities, which a 2026-07-28 client sends per request instead;
 * `connection`: other code that depends on the connection's initialize (oninitialized, getClientVersion(), a
 * comparison of the negotiated revision), which a 2026-07-28 client never sends (src/analysis/eraTraps.ts);
 * `logging`: a log message sent on the connection; `list-change`: a list change told from a server instance.
 */
export type SiteKind =
  | 'elicitation'
  | 'elicitation-url'
  | 'sampling'
  | 'roots'
  | 'request'
  | 'task'
  | 'registration'
  | 'entry'
  | 'capabilities'
  | 'connection'
  | 'logging'
  | 'list-change';
