/**
 * Frameworks built on the MCP SDK whose own request APIs a server may call instead of the SDK's: the
 * packages that name them, the methods that send a server-initiated request, and what to do about each
 * for MCP 2026-07-28. Read by the analysis (src/analysis/frameworks.ts) and the causes table.
 *
 * What each framework offers for 2026-07-28 was read from its published package (README and type
 * declarations) at the version named in `status`; a later release may change it.
 */
import type { SiteKind } from '../siteKind.js';

export type FrameworkId = 'fastmcp' | 'mcp-framework' | 'mcp-use' | 'mcp-agent';

export interface FrameworkMethod {
  name: string;
  kind: SiteKind;
  /**
   * Where the method is called: on the context a registered callback receives (`context.elicit`), on a
   * value reached from an instance of the framework's server (`server.sessions[0].requestSampling`), or
   * through `this` in a class extending the framework's base class (`this.samplingRequest`, and
   * `this.server.server.elicitInput` in an McpAgent).
   */
  on: 'context' | 'instance' | 'this' | 'this.server.server';
}

export interface Framework {
  id: FrameworkId;
  /** How the report and markers name it. */
  name: string;
  /** The import specifiers that are the framework's, as a pattern (no anchors): see `isFrameworkModule`. */
  modules: string;
  /** The package folder under node_modules that declares its types. */
  packageDir: string;
  /** For `on: 'this'` methods: the base classes (exported names) that provide them. */
  baseClasses?: readonly string[];
  methods: readonly FrameworkMethod[];
  /** Whether a version serving MCP 2026-07-28 exists, and which was checked. */
  status: string;
  /** What to call instead. */
  instead: string;
  /** Set when the framework runs an SDK 1.x server only: why a file using it is not upgraded to SDK 2.x. */
  keepsSdkV1?: string;
}

const INPUT_REQUIRED =
  'return inputRequired({ inputRequests: { key: inputRequired.elicit({...}) | inputRequired.createMessage({...}) } }) from the tool and read the answer on the retry with acceptedContent(...) or inputResponse(...)';
const TO_SDK = `to serve 2026-07-28 clients, register the tool on an @modelcontextprotocol/server McpServer (registerTool) and ${INPUT_REQUIRED} (or write it there with server.server.elicitInput/createMessage and run mcp-migrate again)`;

export const FRAMEWORKS: readonly Framework[] = [
  {
    id: 'fastmcp',
    name: 'fastmcp',
    modules: 'fastmcp(?:/[\\w./-]+)?',
    packageDir: 'fastmcp',
    methods: [
      { name: 'elicit', kind: 'elicitation', on: 'context' },
      { name: 'requestSampling', kind: 'sampling', on: 'instance' },
      { name: 'requestElicitation', kind: 'elicitation', on: 'instance' },
    ],
    status:
      'no fastmcp release serves MCP 2026-07-28 yet (4.20.16 implements the 2025 revisions only, as its README says), so this keeps working for 2025-era clients only',
    instead: TO_SDK,
  },
  {
    id: 'mcp-framework',
    name: 'mcp-framework',
    modules: 'mcp-framework(?:/[\\w./-]+)?',
    packageDir: 'mcp-framework',
    baseClasses: ['MCPTool', 'MCPPrompt', 'MCPResource'],
    methods: [
      { name: 'samplingRequest', kind: 'sampling', on: 'this' },
      { name: 'samplingRequestWithTools', kind: 'sampling', on: 'this' },
      { name: 'elicit', kind: 'elicitation', on: 'this' },
      { name: 'elicitUrl', kind: 'elicitation-url', on: 'this' },
    ],
    status:
      'no mcp-framework release serves MCP 2026-07-28 yet (0.2.22 is built on SDK 1.x), so this keeps working for 2025-era clients only',
    instead: TO_SDK,
  },
  {
    id: 'mcp-use',
    name: 'mcp-use',
    modules: 'mcp-use(?:/[\\w./-]+)?',
    packageDir: 'mcp-use',
    methods: [
      { name: 'sample', kind: 'sampling', on: 'context' },
      { name: 'elicit', kind: 'elicitation', on: 'context' },
    ],
    status: 'mcp-use 2.x serves MCP 2026-07-28 (built on SDK 2.x; 2.5.2 checked) and its tool context has no sample() or elicit()',
    instead:
      'upgrade to mcp-use 2.x, ' +
      INPUT_REQUIRED.replace('acceptedContent(...)', 'acceptedContent(ctx.inputResponses, key)') +
      ' (mcp-use exports both); state the next round needs travels in requestState (ctx.requestState)',
  },
  {
    id: 'mcp-agent',
    name: 'McpAgent',
    modules: 'agents/mcp',
    packageDir: 'agents',
    baseClasses: ['McpAgent'],
    methods: [
      { name: 'elicitInput', kind: 'elicitation', on: 'this' },
      { name: 'elicitInput', kind: 'elicitation', on: 'this.server.server' },
      { name: 'createMessage', kind: 'sampling', on: 'this.server.server' },
      { name: 'listRoots', kind: 'roots', on: 'this.server.server' },
    ],
    status:
      'McpAgent (agents/mcp) is deprecated and runs an SDK 1.x server only; agents serves MCP 2026-07-28 through createMcpHandler from agents/mcp/server (0.32.0 checked)',
    keepsSdkV1: 'McpAgent runs an SDK 1.x McpServer only (agents documents that an SDK 2.x server cannot run inside it)',
    instead:
      'move the tools to a function that builds an @modelcontextprotocol/server McpServer, serve it with createMcpHandler(factory), and ' +
      INPUT_REQUIRED.replace('acceptedContent(...)', 'acceptedContent(ctx.mcpReq.inputResponses, key)'),
  },
];

export function isFrameworkModule(framework: Framework, specifier: string): boolean {
  return new RegExp(`^(?:${framework.modules})$`).test(specifier);
}

/** An import or require of any framework's package, in a file's text (src/triggers.ts reads files with it before parsing). */
export const FRAMEWORK_IMPORT = new RegExp(
  `(?:\\bfrom\\s*|\\bimport\\s*\\(\\s*|\\brequire\\s*\\(\\s*)['"](?:${FRAMEWORKS.map(f => f.modules).join('|')})['"]`,
);

/** An import of a framework that runs an SDK 1.x server only, in a file's text, and why such a file stays on SDK 1.x. */
export const SDK_V1_FRAMEWORKS = FRAMEWORKS.filter(f => f.keepsSdkV1).map(f => ({
  framework: f,
  imports: new RegExp(`(?:\\bfrom\\s*|\\brequire\\s*\\(\\s*)['"](?:${f.modules})['"]`),
}));

/** A project's own base class whose method makes a request its subclasses call: the API to redesign. */
export const FRAMEWORK_HELPER_CAUSE = 'base-class request helper that subclasses call';
/** A subclass's call of such a helper. */
export const FRAMEWORK_HELPER_CALL_CAUSE = 'call of a base-class request helper';
