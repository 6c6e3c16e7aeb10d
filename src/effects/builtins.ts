/**
 * What the standard library, Node's modules and a few packages do when called, for replay: nothing that
 * outlives the call (pure: run again on each round), something only to the object they are called on
 * (mutating: an effect where that object outlives the round), something on each round that a retry may
 * do again (per round: a log line, a notification), or anything else (an effect: journaled).
 */

/**
 * `mutates-*`: changes the object it is called on (or its first argument) in a way a second call would
 * change again (`push`); `sets-*`: changes it to what a second call would leave it as (`set`, `add`).
 */
export type CallKind =
  'pure' | 'mutates-receiver' | 'sets-receiver' | 'mutates-first-argument' | 'sets-first-argument' | 'per-round' | 'effect';

/** What an iterator's own methods do to it: each moves it on. */
const ADVANCING = ['next', 'return', 'throw'] as const;

/** Methods of the standard library's interfaces, by the interface that declares them; a name not listed is pure. */
const BUILTIN_METHODS: Record<
  string,
  { mutating?: readonly string[]; setting?: readonly string[]; effects?: readonly string[]; perRound?: readonly string[] }
> = {
  Array: { mutating: ['push', 'pop', 'shift', 'unshift', 'splice', 'reverse', 'copyWithin'], setting: ['sort', 'fill'] },
  ReadonlyArray: {},
  Map: { setting: ['set', 'delete', 'clear'] },
  ReadonlyMap: {},
  Set: { setting: ['add', 'delete', 'clear'] },
  ReadonlySet: {},
  WeakMap: { setting: ['set', 'delete'] },
  WeakSet: { setting: ['add', 'delete'] },
  String: {},
  Number: {},
  Boolean: {},
  BigInt: {},
  Symbol: {},
  RegExp: {},
  Date: {
    setting: [
      'setDate',
      'setFullYear',
      'setHours',
      'setMilliseconds',
      'setMinutes',
      'setMonth',
      'setSeconds',
      'setTime',
      'setUTCDate',
      'setUTCFullYear',
      'setUTCHours',
      'setUTCMilliseconds',
      'setUTCMinutes',
      'setUTCMonth',
      'setUTCSeconds',
      'setYear',
    ],
  },
  DateConstructor: { effects: ['now'] },
  Math: { effects: ['random'] },
  JSON: {},
  ObjectConstructor: { setting: ['assign', 'defineProperty', 'defineProperties', 'setPrototypeOf'] },
  ArrayConstructor: {},
  NumberConstructor: {},
  StringConstructor: {},
  PromiseConstructor: {},
  Promise: {},
  PromiseLike: {},
  URL: {},
  URLSearchParams: { mutating: ['append'], setting: ['delete', 'set', 'sort'] },
  TextEncoder: {},
  TextDecoder: {},
  Console: {
    perRound: [
      'log',
      'info',
      'warn',
      'error',
      'debug',
      'trace',
      'dir',
      'table',
      'group',
      'groupEnd',
      'time',
      'timeEnd',
      'timeLog',
      'count',
      'assert',
    ],
  },
  Crypto: { effects: ['randomUUID', 'getRandomValues'] },
  SubtleCrypto: {},
  Performance: { effects: ['now'] },
  Headers: { mutating: ['append'], setting: ['delete', 'set'] },
  Intl: {},
  Error: {},
  Buffer: { mutating: ['swap16', 'swap32', 'swap64'], setting: ['write', 'fill', 'copy'] },
  BufferConstructor: {},
  Uint8Array: { mutating: ['reverse', 'copyWithin'], setting: ['set', 'fill', 'sort'] },
  // An iterator's next() advances it: on one that outlives the round (a module's id sequence), a change that repeats.
  Iterator: { mutating: ADVANCING },
  IterableIterator: { mutating: ADVANCING },
  IteratorObject: { mutating: [...ADVANCING, 'toArray', 'forEach', 'reduce', 'some', 'every', 'find'] },
  ArrayIterator: { mutating: ADVANCING },
  MapIterator: { mutating: ADVANCING },
  SetIterator: { mutating: ADVANCING },
  Generator: { mutating: ADVANCING },
  AsyncIterator: { mutating: ADVANCING },
  AsyncIterableIterator: { mutating: ADVANCING },
  AsyncGenerator: { mutating: ADVANCING },
  AbortSignal: {},
  Body: {},
  Response: {},
  Request: {},
};

/** Global functions (identifiers the standard library declares) that do nothing outside the call. */
const PURE_GLOBALS = new Set([
  'parseInt',
  'parseFloat',
  'isNaN',
  'isFinite',
  'encodeURI',
  'encodeURIComponent',
  'decodeURI',
  'decodeURIComponent',
  'escape',
  'unescape',
  'String',
  'Number',
  'Boolean',
  'BigInt',
  'Symbol',
  'Array',
  'Object',
  'structuredClone',
  'atob',
  'btoa',
  'Error',
  'TypeError',
  'RangeError',
]);

/**
 * Globals that run something later or now, set again on each round (a timer of a sleep): a timer's handle
 * cannot travel in requestState, and journaling the call would not keep its callback from running on the
 * round that sets it. What the callback does is judged where it is written (see TIMERS).
 */
const PER_ROUND_GLOBALS = new Set(['setTimeout', 'setImmediate', 'clearTimeout', 'clearImmediate', 'clearInterval', 'queueMicrotask']);

/** The functions that set a timer (an interval, a microtask) whose callback runs later: set again on each round. */
export const TIMERS: ReadonlySet<string> = new Set(['setTimeout', 'setInterval', 'setImmediate', 'queueMicrotask']);

/**
 * Loading a module (`require('./x.js')`; `import()` is syntax, see calls.ts): a module is loaded once per
 * process and cached, so loading it again on a later round does nothing more, and the module object (its
 * functions) could not travel in requestState anyway.
 */
const LOADING_GLOBALS = new Set(['require']);

/** The kind of a method of the standard library, by the interface that declares it; undefined when the interface is not known. */
export function builtinMethodKind(container: string, name: string): CallKind | undefined {
  const entry = BUILTIN_METHODS[container];
  if (!entry) return undefined;
  if (entry.effects?.includes(name)) return 'effect';
  if (entry.perRound?.includes(name)) return 'per-round';
  if (entry.mutating?.includes(name)) return 'mutates-receiver';
  if (entry.setting?.includes(name)) return container === 'ObjectConstructor' ? 'sets-first-argument' : 'sets-receiver';
  return 'pure';
}

export function builtinGlobalKind(name: string): CallKind | undefined {
  if (PURE_GLOBALS.has(name) || LOADING_GLOBALS.has(name)) return 'pure';
  if (PER_ROUND_GLOBALS.has(name)) return 'per-round';
  if (name === 'fetch' || name === 'setInterval') return 'effect';
  return undefined;
}

/**
 * Node's modules, by what their functions do: reads of the file system and the machine run again on each
 * round (what they read is the server's own, as it is then); randomness, writes, processes and the network are effects.
 */
const NODE_MODULES: Record<string, { pure?: 'all'; perRound?: readonly string[]; effects?: readonly string[] }> = {
  path: { pure: 'all' },
  url: { pure: 'all' },
  querystring: { pure: 'all' },
  util: { effects: ['debuglog'] },
  string_decoder: { pure: 'all' },
  buffer: { pure: 'all' },
  assert: { pure: 'all' },
  os: { pure: 'all' },
  fs: {
    perRound: [
      'readFile',
      'readFileSync',
      'existsSync',
      'exists',
      'stat',
      'statSync',
      'lstat',
      'lstatSync',
      'fstat',
      'fstatSync',
      'statfs',
      'statfsSync',
      'readdir',
      'readdirSync',
      'access',
      'accessSync',
      'realpath',
      'realpathSync',
      'readlink',
      'readlinkSync',
      'opendir',
      'opendirSync',
      'glob',
      'globSync',
    ],
  },
  crypto: {
    effects: [
      'randomUUID',
      'randomBytes',
      'randomInt',
      'randomFill',
      'randomFillSync',
      'getRandomValues',
      'generateKey',
      'generateKeyPair',
      'generateKeyPairSync',
      'generateKeySync',
    ],
  },
  timers: { perRound: ['setTimeout', 'setImmediate'] },
  'timers/promises': { perRound: ['setTimeout', 'setImmediate'] },
  perf_hooks: {},
};

/**
 * Methods of the values Node's modules return, by module and by the class or interface declaring them: a
 * `Stats`'s `isFile()` reads what the value holds (pure); a `FileHandle`'s or a `Dir`'s reads read the file
 * system again (per round); any other method of a listed container is an effect (`fileHandle.write()`).
 */
const NODE_CONTAINERS: Record<string, Record<string, { pure?: 'all'; perRound?: readonly string[] }>> = {
  fs: {
    StatsBase: { pure: 'all' },
    Stats: { pure: 'all' },
    BigIntStats: { pure: 'all' },
    StatsFsBase: { pure: 'all' },
    StatsFs: { pure: 'all' },
    BigIntStatsFs: { pure: 'all' },
    Dirent: { pure: 'all' },
    Dir: { perRound: ['read', 'readSync', 'entries', 'close', 'closeSync'] },
    FileHandle: { perRound: ['read', 'readFile', 'readLines', 'readv', 'stat', 'close'] },
  },
};

/**
 * The kind of a function of Node's module `module` (`node:fs/promises` read as `fs`), or of a method
 * `container` (a class or interface of that module) declares; undefined when it is not one of them.
 */
export function nodeModuleKind(module: string, name: string, container?: string): CallKind | undefined {
  const base = module.replace(/^node:/, '').replace(/\/promises$/, '');
  const methods = container === undefined ? undefined : NODE_CONTAINERS[base]?.[container];
  if (methods) return methods.pure === 'all' ? 'pure' : methods.perRound?.includes(name) ? 'per-round' : 'effect';
  const entry = NODE_MODULES[base] ?? NODE_MODULES[module.replace(/^node:/, '')];
  if (!entry) return undefined;
  if (entry.pure === 'all') return 'pure';
  if (entry.effects?.includes(name)) return 'effect';
  if (entry.perRound?.includes(name)) return 'per-round';
  if (base === 'util' || base === 'crypto') return 'pure';
  return 'effect';
}

/** Packages whose functions only compute (schemas, data, formatting). */
const PURE_PACKAGES = new Set([
  'zod',
  'lodash',
  'lodash-es',
  'ramda',
  'date-fns',
  'yaml',
  'js-yaml',
  'ajv',
  'ajv-formats',
  'chalk',
  'picocolors',
  'kleur',
  'semver',
  'mime',
  'mime-types',
  'marked',
  'turndown',
  'cheerio',
  'zod-to-json-schema',
  'ms',
  'minimatch',
  'picomatch',
  'micromatch',
  'escape-string-regexp',
  'strip-ansi',
  'he',
  'entities',
  'qs',
  'jsonschema',
  'fast-xml-parser',
  'papaparse',
  'handlebars',
  'mustache',
]);

/** Logging packages: a line per round, as for console. */
const LOGGING_PACKAGES = new Set(['pino', 'winston', 'debug', 'loglevel', 'bunyan', 'consola', 'signale', 'log4js', 'npmlog', 'tslog']);

/** The kind of a function a package declares; `effect` for any package not known to only compute. */
export function packageKind(pkg: string): CallKind {
  if (PURE_PACKAGES.has(pkg)) return 'pure';
  if (LOGGING_PACKAGES.has(pkg)) return 'per-round';
  return 'effect';
}

/** Methods of the SDK's server and context that send a notification: once per round, as the round's own. */
const SDK_NOTIFICATIONS = new Set([
  'sendLoggingMessage',
  'notification',
  'notify',
  'log',
  'sendProgress',
  'sendResourceUpdated',
  'sendResourceListChanged',
  'sendToolListChanged',
  'sendPromptListChanged',
  'sendNotification',
]);

/** The kind of a member of the MCP SDK's classes or context. */
export function sdkKind(name: string): CallKind {
  if (SDK_NOTIFICATIONS.has(name)) return 'per-round';
  return 'pure';
}

/**
 * Calls whose result is a handle to something outside the server (a connection, a client, a browser):
 * made again on each round where it cannot travel in requestState, as a handler makes it on each call.
 */
export const HANDLE_MAKERS =
  /^(connect|getConnection|acquire|createClient|createConnection|createPool|open|launch|newPage|newContext|login|authenticate|getClient|checkout)$/;
