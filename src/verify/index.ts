/**
 * `mcp-migrate verify`: runs one scenario against the original server (2025-era client) and the migrated
 * server (2026-07-28 client, and a 2025-era client through the SDK's legacy shim) and compares the calls.
 */
export {
  CALL_METHODS,
  DEFAULT_ROOTS_ANSWER,
  DEFAULT_SAMPLING_ANSWER,
  ScenarioError,
  defaultAnswer,
  parseScenario,
  sampleObject,
  sampleValue,
  type CallMethod,
  type Scenario,
  type ScenarioAnswers,
  type ScenarioCall,
} from './scenario.js';
export {
  CLIENT_CAPABILITIES,
  MODERN_PROTOCOL_VERSION,
  runScenario,
  type AskedRequest,
  type CallError,
  type CallOutcome,
  type Era,
  type RunResult,
  type RunScenarioOptions,
  type ServerCommand,
} from './run.js';
export { firstDifference, normalizeError, normalizeRequest, normalizeResult, type Difference } from './compare.js';
export {
  RUN_LABELS,
  compareRuns,
  formatVerifyTable,
  verify,
  type RunName,
  type VerifyOptions,
  type VerifyResult,
  type VerifyRow,
} from './verify.js';
export { smokeScenario, type SmokeOptions } from './smoke.js';
export { ChildProcessTransport, type ChildExit, type ChildTransportOptions } from './transport.js';
export { verifyCommand, runVerifyCommand, type VerifyCommandArgs } from './command.js';
