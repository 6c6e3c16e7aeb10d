/**
 * The official v1-to-v2 codemod's output, and the type mistakes of it we correct: a context member
 * indexed where v2's context no longer has it, a tools/call result array that SDK 1.x's looser handler
 * type let TypeScript evolve from its pushes, and `import('…')` types (JSDoc ones too) it leaves on 1.x;
 * what it leaves that cannot run on 2.x (bound tool() references, Pick<McpServer, 'tool'>, ErrorCode in
 * types, zod 3 APIs, in SDK files and in the zod-only modules of their package), repaired or marked.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Project } from 'ts-morph';
import { upgradeV1 } from '../src/upgrade/index.js';
import { declaredAtTop } from '../src/upgrade/repair.js';

const HEADER = `import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, type ServerNotification, type ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
`;

const SERVER = `${HEADER}
type SendRequest = RequestHandlerExtra<ServerRequest, ServerNotification>['sendRequest'];
type Signal = RequestHandlerExtra<ServerRequest, ServerNotification>['signal'];
type Auth = RequestHandlerExtra<ServerRequest, ServerNotification>['authInfo'];
export async function ask(send: SendRequest, signal: Signal, auth: Auth) {
  return { send, signal, auth };
}
const server = new Server({ name: 's', version: '1' }, { capabilities: { tools: {} } });
server.setRequestHandler(CallToolRequestSchema, async request => {
  const content = [];
  content.push({ type: 'text', text: request.params.name });
  const kept: { type: 'text'; text: string }[] = [];
  return { content, kept };
});
`;

function upgraded(text: string, file = '/project/src/server.ts'): { text: string; notes: string[] } {
  const result = upgradeV1([{ path: file, text }]);
  return { text: result.texts.get(file) ?? text, notes: result.notes.map(n => `${n.level}: ${n.message}`) };
}

describe('upgrade to SDK 2.x', () => {
  it('indexes a context member where v2 keeps it, and says so', () => {
    const { text, notes } = upgraded(SERVER);
    expect(text).toContain(`type SendRequest = ServerContext["mcpReq"]["send"];`);
    expect(text).toContain(`type Signal = ServerContext["mcpReq"]["signal"];`);
    expect(text).toContain(`type Auth = NonNullable<ServerContext["http"]>["authInfo"];`);
    expect(text).not.toMatch(/ServerContext\[["']sendRequest["']\]/);
    expect(notes).toContain(
      'info: ServerContext["sendRequest"] (from the official codemod) does not exist in SDK 2.x: written as ServerContext["mcpReq"]["send"]',
    );
  });

  it('types an empty result array of a low-level tools/call handler, and imports the type once', () => {
    const { text, notes } = upgraded(SERVER);
    expect(text).toContain(`const content: CallToolResult['content'] = [];`);
    // an array with its own annotation, or not the result's member, is left as written
    expect(text).toContain(`const kept: { type: 'text'; text: string }[] = [];`);
    expect(text.match(/\bCallToolResult\b/g)).toHaveLength(2);
    expect(text).toMatch(
      /import type \{[^}]*\bCallToolResult\b[^}]*\} from '@modelcontextprotocol\/server'|import \{[^}]*\btype CallToolResult\b[^}]*\} from '@modelcontextprotocol\/server'/,
    );
    expect(notes.some(n => /"content" is typed CallToolResult\['content'\]/.test(n))).toBe(true);
  });

  it('types a constant tool list a tools/list handler returns, so its input schemas keep type "object"', () => {
    const { text, notes } = upgraded(`import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
const server = new Server({ name: 's', version: '1' }, { capabilities: { tools: {} } });
const tools = [
  { name: 'a', inputSchema: { type: 'object', properties: { x: { type: 'string' } } } },
  { name: 'b', inputSchema: { type: 'object', properties: {} } },
];
let others = [{ name: 'c', inputSchema: { type: 'object' } }];
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
`);
    expect(text).toContain("const tools: ListToolsResult['tools'] = [");
    expect(text).toContain("server.setRequestHandler('tools/list', async () => ({ tools }));");
    // a list that is not a constant may change before it is listed: left as written
    expect(text).toContain("let others = [{ name: 'c'");
    expect(text).toMatch(
      /import type \{[^}]*\bListToolsResult\b[^}]*\} from '@modelcontextprotocol\/server'|import \{[^}]*\btype ListToolsResult\b[^}]*\} from '@modelcontextprotocol\/server'/,
    );
    expect(notes).toContainEqual(expect.stringMatching(/^info: "tools" is typed ListToolsResult\['tools'\]/));
  });

  it('casts the schemas of a tool list the tools/list handler computes from a type of the project', () => {
    const { text, notes } = upgraded(`import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
interface ToolDef { name: string; inputSchema: unknown; outputSchema?: Record<string, unknown> }
declare const defs: ToolDef[];
const server = new Server({ name: 's', version: '1' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: defs.map(d => ({ name: d.name, inputSchema: d.inputSchema, outputSchema: d.outputSchema ?? undefined, annotations: { title: d.name } })),
}));
`);
    expect(text).toContain(
      "inputSchema: d.inputSchema as Tool['inputSchema'], outputSchema: (d.outputSchema ?? undefined) as Tool['outputSchema']",
    );
    expect(text).toMatch(
      /import \{[^}]*\btype Tool\b[^}]*\} from '@modelcontextprotocol\/server'|import type \{[^}]*\bTool\b[^}]*\} from '@modelcontextprotocol\/server'/,
    );
    expect(notes).toContainEqual(
      expect.stringMatching(/^info: the inputSchema of a tool list the tools\/list handler computes is cast to Tool\['inputSchema'\]/),
    );
  });

  it('leaves JavaScript without annotations', () => {
    const js = `const { Server } = require('@modelcontextprotocol/sdk/server/index.js');
const { CallToolRequestSchema } = require('@modelcontextprotocol/sdk/types.js');
const server = new Server({ name: 's', version: '1' }, { capabilities: { tools: {} } });
server.setRequestHandler(CallToolRequestSchema, async () => {
  const content = [];
  content.push({ type: 'text', text: 'hi' });
  return { content };
});
`;
    const { text } = upgraded(js, '/project/src/server.cjs');
    expect(text).toContain('const content = [];');
    expect(text).not.toContain('CallToolResult');
  });

  describe("import('…') types", () => {
    const JS = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

/**
 * @param {import('@modelcontextprotocol/sdk/server/mcp.js').McpServer} server - MCP server to register the tool on.
 * @returns {ReturnType<import('@modelcontextprotocol/sdk/server/mcp.js').McpServer['registerTool']>}
 */
export function register(server) {
  return server.registerTool('echo', {}, handler);
}

/**
 * @param {import("@modelcontextprotocol/sdk/types.js").ResourceTemplate} template
 * @param {import('@modelcontextprotocol/sdk/shared/protocol.js').RequestHandlerExtra<import('@modelcontextprotocol/sdk/types.js').ServerRequest, import('@modelcontextprotocol/sdk/types.js').ServerNotification>} extra
 * @param {import('@modelcontextprotocol/sdk/made/up.js').Thing} thing
 * @returns {Promise<import('@modelcontextprotocol/sdk/types.js').CallToolResult>}
 */
async function handler(template, extra, thing) {
  return { content: [] };
}

export const server = new McpServer({ name: 's', version: '1' });
`;

    it('points JSDoc type imports where the official codemod sends an import of the same name, renames included, and says so', () => {
      const { text, notes } = upgraded(JS, '/project/src/tools.js');
      expect(text).toContain(" * @param {import('@modelcontextprotocol/server').McpServer} server - MCP server to register the tool on.");
      expect(text).toContain(" * @returns {ReturnType<import('@modelcontextprotocol/server').McpServer['registerTool']>}");
      expect(text).toContain(' * @param {import("@modelcontextprotocol/server").ResourceTemplateType} template');
      // the codemod drops RequestHandlerExtra's type arguments for ServerContext: the types in them go too
      expect(text).toContain(" * @param {import('@modelcontextprotocol/server').ServerContext} extra");
      expect(text).toContain(" * @returns {Promise<import('@modelcontextprotocol/server').CallToolResult>}");
      expect(notes).toContain(
        "info: import('@modelcontextprotocol/sdk/server/mcp.js').McpServer (an import('…') type, which the official codemod does not rewrite) written as import('@modelcontextprotocol/server').McpServer",
      );
      expect(notes).toContain(
        "info: import('@modelcontextprotocol/sdk/types.js').ResourceTemplate (an import('…') type, which the official codemod does not rewrite) written as import('@modelcontextprotocol/server').ResourceTemplateType",
      );
      expect(notes).toContain(
        "info: import('@modelcontextprotocol/sdk/shared/protocol.js').RequestHandlerExtra (an import('…') type, which the official codemod does not rewrite) written as import('@modelcontextprotocol/server').ServerContext, without its type arguments",
      );
      expect(notes).toContain(
        "info: import('@modelcontextprotocol/sdk/types.js').CallToolResult (an import('…') type, which the official codemod does not rewrite) written as import('@modelcontextprotocol/server').CallToolResult",
      );
    });

    it('leaves a type import the official codemod has no home for as it is, and reports it', () => {
      const { text, notes } = upgraded(JS, '/project/src/tools.js');
      expect(text).toContain(" * @param {import('@modelcontextprotocol/sdk/made/up.js').Thing} thing");
      expect(notes).toContain(
        "warning: import('@modelcontextprotocol/sdk/made/up.js').Thing left on SDK 1.x: the official codemod has no SDK 2.x import for it (Unknown SDK import path: @modelcontextprotocol/sdk/made/up.js. Manual migration required.)",
      );
    });

    it('upgrades a file that names SDK 1.x only in JSDoc', () => {
      const js = `/** @param {import('@modelcontextprotocol/sdk/server/stdio.js').StdioServerTransport} transport */
export function serve(transport) {}
`;
      expect(upgraded(js, '/project/src/serve.mjs').text)
        .toBe(`/** @param {import('@modelcontextprotocol/server/stdio').StdioServerTransport} transport */
export function serve(transport) {}
`);
    });

    it('sends shared types to the side of the SDK the file imports, as the official codemod does for its imports', () => {
      const js = `const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
/** @param {import('@modelcontextprotocol/sdk/types.js').CallToolResult} result */
function show(result) {}
module.exports = { show, Client };
`;
      const { text } = upgraded(js, '/project/src/client.cjs');
      expect(text).toContain(`const { Client } = require('@modelcontextprotocol/client');`);
      expect(text).toContain("/** @param {import('@modelcontextprotocol/client').CallToolResult} result */");
    });

    it('rewrites import types of TypeScript, which the official codemod leaves too', () => {
      const ts = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
export function serve(server: import('@modelcontextprotocol/sdk/server/mcp.js').McpServer, transport: import('@modelcontextprotocol/sdk/server/streamableHttp.js').StreamableHTTPServerTransport): McpServer {
  return server;
}
`;
      const { text, notes } = upgraded(ts);
      expect(text).toContain(
        "export function serve(server: import('@modelcontextprotocol/server').McpServer, transport: import('@modelcontextprotocol/node').NodeStreamableHTTPServerTransport): McpServer {",
      );
      expect(notes).toContain(
        "info: import('@modelcontextprotocol/sdk/server/streamableHttp.js').StreamableHTTPServerTransport (an import('…') type, which the official codemod does not rewrite) written as import('@modelcontextprotocol/node').NodeStreamableHTTPServerTransport",
      );
    });
  });
});

describe('handler contexts the official codemod leaves on 1.x members', () => {
  const upgradedTool = (callback: string) =>
    upgraded(`import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
const server = new McpServer({ name: 's', version: '1' });
server.registerTool('t', {}, ${callback});
`);

  it('moves the members of a context named otherwise than extra, or the only parameter', () => {
    const { text, notes } = upgradedTool(
      'async (context) => [context.signal, context.sendRequest, context.authInfo?.clientId, context.sessionId]',
    );
    expect(text).toContain(
      'async (context) => [context.mcpReq.signal, context.mcpReq.send, context.http?.authInfo?.clientId, context.sessionId]',
    );
    expect(notes).toContainEqual(expect.stringMatching(/^info: the handler context "context" read with SDK 1\.x members/));
  });

  it("names a destructured context and drops the official codemod's finding about it, now untrue", () => {
    const { text, notes } = upgraded(`import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
const server = new McpServer({ name: 's', version: '1' });
server.registerTool('t', { inputSchema: {} }, async (args, { signal, sendRequest: send }) => ({ s: signal.aborted, send, args }));
`);
    expect(text).toContain('async (args, ctx) => ({ s: ctx.mcpReq.signal.aborted, send: ctx.mcpReq.send, args })');
    expect(text).not.toContain('@mcp-codemod-error');
    expect(notes.some(n => n.includes('Destructuring of context parameter'))).toBe(false);
  });

  it('expands `const { sendRequest } = extra` in the body into member reads', () => {
    const { text } = upgradedTool(
      'async extra => { const { sendRequest, requestId } = extra; return sendRequest({ method: "ping" }, requestId); }',
    );
    expect(text).toContain('async extra => { return extra.mcpReq.send({ method: "ping" }, extra.mcpReq.id); }');
  });

  it("leaves a destructuring with a rest element or a default, and the codemod's finding with it", () => {
    const { text, notes } = upgraded(`import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
const server = new McpServer({ name: 's', version: '1' });
server.registerTool('t', { inputSchema: {} }, async (args, { signal, ...rest }) => ({ signal, rest, args }));
`);
    expect(text).toContain('async (args, { signal, ...rest })');
    expect(text).toContain('@mcp-codemod-error Destructuring of context parameter');
    expect(notes.some(n => n.includes('Destructuring of context parameter'))).toBe(true);
  });
});

describe("the codemod's converted registrations keep the file's indentation", () => {
  const legacy = (body: string) => `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
export function register(server: McpServer) {
  server.tool('t', 'Does t', { q: z.string() }, async ({ q }) => {
${body}
  });
}
`;

  it('gives the callback its lines back where the codemod indented them again', () => {
    const { text } = upgraded(legacy("    const n = q.length;\n    return { content: [{ type: 'text', text: String(n) }] };"));
    expect(text).toContain(
      "  server.registerTool('t', { description: 'Does t', inputSchema: z.object({ q: z.string() }) }, async ({ q }) => {\n    const n = q.length;\n    return { content: [{ type: 'text', text: String(n) }] };\n  });\n",
    );
  });

  it('leaves a callback holding a template literal over several lines as the codemod wrote it (those lines are the string)', () => {
    const { text } = upgraded(legacy("    const doc = `line one\nline two`;\n    return { content: [{ type: 'text', text: doc + q }] };"));
    expect(text).toContain('line one\nline two`');
    expect(text).not.toContain('=> {\n    const doc');
  });
});

describe('tool() and prompt() calls the official codemod leaves or misreads', () => {
  it('registers a tool named and described by constants, here and in a relative module', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-migrate-tool-overloads-'));
    fs.writeFileSync(
      path.join(dir, 'names.ts'),
      "export const TOOLS = { search: { name: 'search', description: 'Finds things' } } as const;\n",
    );
    const { text, notes } = upgraded(
      `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { TOOLS } from './names.js';
const ASK = 'ask';
const server = new McpServer({ name: 's', version: '1' });
server.tool(TOOLS.search.name, TOOLS.search.description, { q: z.string() }, async ({ q }) => ({ content: [{ type: 'text', text: q }] }));
server.prompt(ASK, 'Asks', async () => ({ messages: [] }));
`,
      path.join(dir, 'server.ts'),
    );
    fs.rmSync(dir, { recursive: true, force: true });
    expect(text).toContain(
      'server.registerTool(TOOLS.search.name, { description: TOOLS.search.description, inputSchema: z.object({ q: z.string() }) }, async ({ q }) =>',
    );
    expect(text).toContain("server.registerPrompt(ASK, { description: 'Asks' }, async () => ({ messages: [] }));");
    expect(text).not.toContain('@mcp-codemod-error');
    expect(notes).toContainEqual(expect.stringMatching(/^info: \.tool\(TOOLS\.search\.name, \.\.\.\) written as \.registerTool\(\)/));
  });

  it('registers annotations as annotations, not as the input schema', () => {
    const { text } = upgraded(`import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
const server = new McpServer({ name: 's', version: '1' });
server.tool('read', { readOnlyHint: true }, async () => ({ content: [] }));
server.tool('wipe', 'Wipes', { destructiveHint: true, title: 'Wipe' }, async () => ({ content: [] }));
`);
    expect(text).toContain("server.registerTool('read', { annotations: { readOnlyHint: true } }, async () => ({ content: [] }));");
    expect(text).toContain(
      "server.registerTool('wipe', { description: 'Wipes', annotations: { destructiveHint: true, title: 'Wipe' } }, async () => ({ content: [] }));",
    );
  });

  it('registers a parameter shape whose only key is title as the input schema, not as annotations', () => {
    const { text } = upgraded(`import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
const DESCRIPTION = 'Deletes a note';
const server = new McpServer({ name: 's', version: '1' });
server.tool('delete', DESCRIPTION, { title: z.string() }, async ({ title }) => ({ content: [{ type: 'text', text: title }] }));
server.tool('wipe', DESCRIPTION, { title: 'Wipe', destructiveHint: true }, async () => ({ content: [] }));
`);
    expect(text).toContain(
      "server.registerTool('delete', { description: DESCRIPTION, inputSchema: z.object({ title: z.string() }) }, async ({ title }) =>",
    );
    expect(text).toContain(
      "server.registerTool('wipe', { description: DESCRIPTION, annotations: { title: 'Wipe', destructiveHint: true } }, async () =>",
    );
  });

  it('registers the tools of a constant table walked by a loop, wrapping the raw shapes its entries hold', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-migrate-tool-table-'));
    fs.mkdirSync(path.join(dir, 'tools'));
    fs.writeFileSync(
      path.join(dir, 'tools', 'search.ts'),
      "import { z } from 'zod';\nexport const search = { name: 'search', description: 'Finds', schema: z.object({ q: z.string() }) };\n",
    );
    fs.writeFileSync(
      path.join(dir, 'tools', 'index.ts'),
      "import { z } from 'zod';\nimport { search } from './search.js';\nexport const TOOLS = [search, { name: 'ping', description: 'Pings', schema: z.object({}) }] as const;\n",
    );
    const { text } = upgraded(
      `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { TOOLS } from './tools/index.js';
const server = new McpServer({ name: 's', version: '1' });
const RAW = [{ name: 'a', description: 'A', shape: { x: z.string() } }, { name: 'b', description: 'B', shape: {} }];
for (const t of RAW) {
  server.tool(t.name, t.description, t.shape, async () => ({ content: [] }));
}
TOOLS.forEach(tool => server.tool(tool.name, tool.description, tool.schema, async () => ({ content: [] })));
`,
      path.join(dir, 'server.ts'),
    );
    fs.rmSync(dir, { recursive: true, force: true });
    expect(text).toContain('server.registerTool(t.name, { description: t.description, inputSchema: z.object(t.shape) }, async () =>');
    expect(text).toContain('server.registerTool(tool.name, { description: tool.description, inputSchema: tool.schema }, async () =>');
    expect(text).not.toContain('@mcp-codemod-error');
  });

  it('leaves a table whose entries disagree on what a member is to the codemod, and its finding', () => {
    const { text } = upgraded(`import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
const server = new McpServer({ name: 's', version: '1' });
const MIXED = [{ name: 'a', extra: 'A' }, { name: 'b', extra: { readOnlyHint: true } }];
for (const t of MIXED) server.tool(t.name, t.extra, async () => ({ content: [] }));
`);
    expect(text).toContain('server.tool(t.name, t.extra');
    expect(text).toContain('@mcp-codemod-error Could not automatically migrate .tool() call');
  });

  it('leaves a call whose arguments it cannot tell apart to the codemod, and its finding', () => {
    const { text } = upgraded(`import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { describe } from 'elsewhere';
const server = new McpServer({ name: 's', version: '1' });
for (const tool of [{ name: 'a' }]) server.tool(tool.name, describe(tool), async () => ({ content: [] }));
`);
    expect(text).toContain('server.tool(tool.name, describe(tool)');
    expect(text).toContain('@mcp-codemod-error Could not automatically migrate .tool() call');
  });
});

describe('zod 3 calls that zod 4, which SDK 2.x needs, no longer takes', () => {
  it('gives z.record its key schema, which zod 3 reads alike', () => {
    const { text, notes } = upgraded(`import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
const server = new McpServer({ name: 's', version: '1' });
server.registerTool('t', { inputSchema: { tags: z.record(z.string()), pairs: z.record(z.string(), z.number()) } }, async () => ({ content: [] }));
`);
    expect(text).toContain('tags: z.record(z.string(), z.string()), pairs: z.record(z.string(), z.number())');
    expect(notes).toContainEqual(expect.stringMatching(/^info: z\.record\(value\) written as z\.record\(z\.string\(\), value\)/));
  });
});

describe("McpError's message, which 2.x's ProtocolError no longer prefixes", () => {
  it('keeps the "MCP error <code>: " prefix clients saw, whatever the message is written as', () => {
    const { text, notes } = upgraded(`import { McpError, ErrorCode } from '@modelcontextprotocol/sdk/types.js';
export function fail(name: string, why: string) {
  if (name === 'a') throw new McpError(ErrorCode.MethodNotFound, \`Unknown tool: \${name}\`);
  if (name === 'b') throw new McpError(ErrorCode.InvalidParams, 'bad \\\`b\\\`');
  if (name === 'c') throw new McpError(-32000, why, { name });
  throw new McpError(codeOf(name), why);
}
class NotReady extends McpError {
  constructor() {
    super(ErrorCode.InternalError, 'not ready');
  }
}
declare function codeOf(name: string): number;
`);
    expect(text).toContain(
      'throw new ProtocolError(ProtocolErrorCode.MethodNotFound, `MCP error ${ProtocolErrorCode.MethodNotFound}: Unknown tool: ${name}`);',
    );
    expect(text).toContain(
      'throw new ProtocolError(ProtocolErrorCode.InvalidParams, `MCP error ${ProtocolErrorCode.InvalidParams}: bad \\`b\\``);',
    );
    expect(text).toContain('throw new ProtocolError(-32000, `MCP error -32000: ${why}`, { name });');
    expect(text).toContain('super(ProtocolErrorCode.InternalError, `MCP error ${ProtocolErrorCode.InternalError}: not ready`);');
    // a code read by a call would be read twice: left, and said
    expect(text).toContain('throw new ProtocolError(codeOf(name), why);');
    expect(notes.filter(n => /^info: the ProtocolError message keeps the "MCP error <code>: " prefix/.test(n))).toHaveLength(4);
    expect(notes).toContainEqual(
      expect.stringMatching(/^warning: SDK 1\.x's McpError added "MCP error <code>: " to its message and 2\.x's ProtocolError does not/),
    );
  });
});

describe("McpError's message, which 2.x's ProtocolError no longer prefixes, in one edit of the file", () => {
  it("gives an error made inside another's message its prefix too, the inner one read as edited", () => {
    const { text } = upgraded(`import { McpError, ErrorCode } from '@modelcontextprotocol/sdk/types.js';
export function fail(why: string) {
  throw new McpError(ErrorCode.InternalError, \`wrapped: \${new McpError(-32001, why).message}\`);
}
export function other(why: string) {
  throw new McpError(-32002, why);
}
`);
    expect(text).toContain(
      'throw new ProtocolError(ProtocolErrorCode.InternalError, `MCP error ${ProtocolErrorCode.InternalError}: wrapped: ${new ProtocolError(-32001, `MCP error -32001: ${why}`).message}`);',
    );
    expect(text).toContain('throw new ProtocolError(-32002, `MCP error -32002: ${why}`);');
  });
});

describe('declaredAtTop, read from the statements', () => {
  it("says of every name what the binder's locals say", () => {
    const project = new Project({ useInMemoryFileSystem: true, compilerOptions: { allowJs: true, noLib: true } });
    const sf = project.createSourceFile(
      '/m.ts',
      `import d, { a, b as c } from './x.js';
import * as ns from './y.js';
import e = require('./z');
export const f = 1, { g, h: [i, , j] } = { g: 1, h: [1, 2, 3] };
let k: number;
export default function l() { const inner = 1; return inner; }
class M {}
enum N { X }
interface O {}
type P = string;
namespace Q { export const r = 1; }
declare module './w.js' { const s: number; }
export { k as t };
`,
    );
    const names = [
      'd',
      'a',
      'b',
      'c',
      'ns',
      'e',
      'f',
      'g',
      'h',
      'i',
      'j',
      'k',
      'l',
      'inner',
      'M',
      'N',
      'X',
      'O',
      'P',
      'Q',
      'r',
      's',
      't',
      'z',
    ];
    for (const name of names) expect([name, declaredAtTop(sf, name)]).toEqual([name, sf.getLocal(name) !== undefined]);
  });
});

describe('raw zod shapes the official codemod cannot see are shapes', () => {
  it('wraps a shape held in a field typed ZodRawShape, or in a constant, in z.object(), importing z beside the types', () => {
    const { text, notes } = upgraded(`import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ZodRawShape } from 'zod';
import { shared } from './shared.js';
abstract class BaseTool {
  abstract readonly schema: ZodRawShape;
  constructor(private readonly server: McpServer) {}
  register(): void {
    this.server.registerTool('t', { inputSchema: this.schema }, async () => ({ content: [] }));
  }
}
const inputSchema = { q: 1 };
export function more(server: McpServer) {
  server.registerTool('u', { inputSchema }, async () => ({ content: [] }));
  server.registerTool('v', { inputSchema: shared }, async () => ({ content: [] }));
}
`);
    expect(text).toContain("import { z, type ZodRawShape } from 'zod';");
    expect(text).toContain("this.server.registerTool('t', { inputSchema: z.object(this.schema) }");
    expect(text).toContain("server.registerTool('u', { inputSchema: z.object(inputSchema) }");
    // declared elsewhere: it may already be a schema object, so the codemod's finding stays
    expect(text).toContain("server.registerTool('v', { inputSchema: shared }");
    expect(text.match(/@mcp-codemod-error/g)).toHaveLength(1);
    expect(notes).toContainEqual(
      expect.stringMatching(/^info: inputSchema \(this\.schema\) is a raw zod shape: wrapped with z\.object\(\)/),
    );
  });
});

describe("the file's quotes in the SDK imports the official codemod rewrites", () => {
  it('gives a single-quoted file its quotes back, and leaves a double-quoted one as it is', () => {
    const single = upgraded(`import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
export const server = new McpServer({ name: 's', version: '1' });
export type R = CallToolResult;
`);
    expect(single.text).toMatch(/^import \{ McpServer \} from '@modelcontextprotocol\/server';$/m);
    expect(single.text).toMatch(/^import type \{ CallToolResult \} from '@modelcontextprotocol\/server';$/m);
    expect(single.text).not.toContain('"');
    const double = upgraded(`import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
export const server = new McpServer({ name: "s", version: "1" });
`);
    expect(double.text).toMatch(/^import \{ McpServer \} from "@modelcontextprotocol\/server";$/m);
  });
});

describe('the context of a handler a project function wraps before it is registered', () => {
  it('is not moved (the wrapper decides what it is) but marked where it reads members SDK 2.x moved', () => {
    // withRetry() calls the callback again when it throws: no pass-through.
    const { text, notes } = upgraded(
      `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
const withRetry = (cb) => async (args, extra) => { try { return await cb(args, extra); } catch (e) { return await cb(args, extra); } };
const server = new McpServer({ name: 's', version: '1' });
server.registerTool('t', { description: 'T', inputSchema: {} }, withRetry(async (args, extra) => {
  if (extra.signal.aborted) return { content: [] };
  return { content: [{ type: 'text', text: String(extra.sessionId) }] };
}));
server.registerTool('u', { description: 'U', inputSchema: {} }, withRetry(async (args, extra) => ({ content: [{ type: 'text', text: typeof extra } ] })));
`,
      '/project/src/server.js',
    );
    expect(text).toContain('if (extra.signal.aborted)');
    expect(text).toMatch(
      /\/\* @mcp-codemod-error a handler wrapped by withRetry\(\) reads extra\.signal, where SDK 1\.x's context had them; SDK 2\.x moved them \(extra\.signal → extra\.mcpReq\.signal\)/,
    );
    // The codemod's own import of z, in the file's quotes.
    expect(text).toMatch(/^import \{ z \} from 'zod';$/m);
    expect(notes.filter(n => /a handler wrapped by withRetry\(\)/.test(n))).toHaveLength(1);
  });

  it("is moved as a handler's when the wrapper is a pass-through of the file (it hands the context on unchanged)", () => {
    const { text, notes } = upgraded(
      `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
const withErrors = (cb) => async (...args) => { try { return await cb(...args); } catch (e) { return { content: [], isError: true }; } };
const server = new McpServer({ name: 's', version: '1' });
server.registerTool('t', { description: 'T', inputSchema: {} }, withErrors(async (args, extra) => {
  if (extra.signal.aborted) return { content: [] };
  return { content: [] };
}));
`,
      '/project/src/server.js',
    );
    expect(text).toContain('if (extra.mcpReq.signal.aborted)');
    expect(text).not.toContain('@mcp-codemod-error');
    expect(notes.filter(n => /a handler wrapped by withErrors\(\)/.test(n))).toHaveLength(0);
  });
});

describe('tool(), prompt() and resource() called through a bound reference', () => {
  it('calls the method on its server again, so each call is registered like any other, and removes the reference', () => {
    const { text, notes } = upgraded(`import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
const server = new McpServer({ name: 's', version: '1' });
const tool = server.tool.bind(server);
const resource = server.resource.bind(server);
tool('echo', 'Echoes', { text: z.string() }, async ({ text }) => ({ content: [{ type: 'text', text }] }));
tool('ping', async () => ({ content: [] }));
resource('readme', 'file:///readme', async uri => ({ contents: [{ uri: uri.href, text: 'hi' }] }));
class Tools {
  constructor(private readonly server: McpServer) {}
  register() {
    const register = this.server.tool.bind(this.server);
    [1].forEach(() => register('inner', async () => ({ content: [] })));
  }
}
`);
    expect(text).not.toMatch(/\.bind\(/);
    expect(text).toContain(
      "server.registerTool('echo', { description: 'Echoes', inputSchema: z.object({ text: z.string() }) }, async ({ text }) =>",
    );
    expect(text).toContain("server.registerTool('ping', {}, async () => ({ content: [] }));");
    expect(text).toContain("server.registerResource('readme', 'file:///readme', {}, async uri =>");
    expect(text).toContain("[1].forEach(() => this.server.registerTool('inner', {}, async () => ({ content: [] })));");
    expect(text).not.toContain('@mcp-codemod-error');
    expect(notes).toContainEqual(
      expect.stringMatching(/^info: tool\(\.\.\.\), server\.tool bound to server, written as server\.tool\(\.\.\.\) \(2 calls/),
    );
  });

  it('leaves and marks a bound reference used otherwise than called, exported, or called where its server may differ', () => {
    const { text, notes } = upgraded(`import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
const server = new McpServer({ name: 's', version: '1' });
export const tool = server.tool.bind(server);
const prompt = server.prompt.bind(server);
[prompt].forEach(p => p('x', () => ({ messages: [] })));
class Tools {
  constructor(private readonly server: McpServer) {}
  register() {
    const register = this.server.tool.bind(this.server);
    const later = function (this: { server: McpServer }) { register('a', async () => ({ content: [] })); };
    return later;
  }
}
const cli = { prompt: (q: string) => q };
const ask = cli.prompt.bind(cli);
ask('q');
`);
    expect(text.match(/@mcp-codemod-error [^\n]*is a bound reference to SDK 1\.x's (tool|prompt)\(\)/g)).toHaveLength(3);
    expect(text).toContain('export const tool = server.tool.bind(server);');
    expect(text).toContain(
      "/* @mcp-codemod-error server.prompt.bind(server) is a bound reference to SDK 1.x's prompt(), which SDK 2.x's McpServer does not have: register each call of it with server.registerPrompt(",
    );
    // not a server: not ours
    expect(text).toContain('const ask = cli.prompt.bind(cli);');
    expect(notes.filter(n => /^warning: .*is a bound reference/.test(n))).toHaveLength(3);
  });
});

describe("types naming McpServer's 1.x tool(), prompt() and resource()", () => {
  it('renames the keys of a Pick every call through which is now registered, and marks one still used, exported, or indexed', () => {
    const { text, notes } = upgraded(`import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
export function registerEcho(server: Pick<McpServer, 'tool'>): void {
  server.tool('echo', 'Echoes', { text: z.string() }, async ({ text }) => ({ content: [{ type: 'text', text }] }));
}
type Docs = Pick<McpServer, "resource" | 'prompt' | 'connect'>;
export function registerDocs(server: Docs): void {
  server.resource('readme', 'file:///readme', async uri => ({ contents: [{ uri: uri.href, text: 'hi' }] }));
  server.prompt('greet', () => ({ messages: [] }));
}
export type Registrar = Pick<McpServer, 'tool'>;
export function many(server: Pick<McpServer, 'tool'>, names: string[]) {
  for (const name of names) server.tool(name, async () => ({ content: [] }));
}
export type ToolArgs = Parameters<McpServer['tool']>;
`);
    expect(text).toContain("export function registerEcho(server: Pick<McpServer, 'registerTool'>): void {");
    expect(text).toContain(`type Docs = Pick<McpServer, "registerResource" | 'registerPrompt' | 'connect'>;`);
    expect(text).toContain("export type Registrar = Pick<McpServer, 'tool'>;");
    expect(text).toContain("export function many(server: Pick<McpServer, 'tool'>, names: string[]) {");
    expect(text.match(/@mcp-codemod-error [^\n]*names tool, which SDK 2\.x's McpServer does not have/g)).toHaveLength(2);
    expect(text).toContain("/* @mcp-codemod-error McpServer['tool'] is SDK 1.x's tool(), which SDK 2.x's McpServer does not have");
    expect(notes).toContainEqual(expect.stringMatching(/^info: Pick<McpServer, 'tool'> written as Pick<McpServer, 'registerTool'>/));
  });
});

describe('uses of ErrorCode the official codemod leaves naming nothing', () => {
  it('writes a member in a type where the codemod sends it in an expression, ErrorCode as a type as both enums, and marks every other use', () => {
    const { text, notes } = upgraded(`import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
export interface Failure {
  code: ErrorCode;
  message: string;
}
export type BadParams = ErrorCode.InvalidParams;
export type Timeout = typeof ErrorCode.RequestTimeout;
export const codes = Object.values(ErrorCode);
export function invalid(message: string): Failure {
  return { code: ErrorCode.InvalidParams, message };
}
export function fail(f: Failure): never {
  throw new McpError(f.code, f.message);
}
`);
    expect(text).toContain('export type BadParams = ProtocolErrorCode.InvalidParams;');
    expect(text).toContain('export type Timeout = typeof SdkErrorCode.RequestTimeout;');
    expect(text).toMatch(/^import \{[^}]*\bProtocolErrorCode\b[^}]*\bSdkErrorCode\b[^}]*\} from '@modelcontextprotocol\/server';$/m);
    // the enum used as a value holds every member: a value typed ErrorCode may be of either enum
    expect(text).toContain('  code: ProtocolErrorCode | SdkErrorCode;');
    expect(text).toMatch(
      /\/\* @mcp-codemod-error SDK 1\.x's ErrorCode names nothing here[^\n]*\*\/\nexport const codes = Object\.values\(ErrorCode\);/,
    );
    expect(text.match(/@mcp-codemod-error/g)).toHaveLength(1);
    expect(notes).toContainEqual(
      expect.stringMatching(/^info: ErrorCode\.InvalidParams in a type written as ProtocolErrorCode\.InvalidParams/),
    );
    expect(notes).toContainEqual(
      expect.stringMatching(
        /^info: ErrorCode in a type written as ProtocolErrorCode \| SdkErrorCode: [^\n]*the enum itself is used as a value/,
      ),
    );
  });

  it("replaces the codemod's finding that ErrorCode is gone with its own, one per use", () => {
    const { text, notes } = upgraded(`import type { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
export type Bad = ErrorCode.InvalidParams;
export type Texts = Record<ErrorCode, string>;
`);
    expect(text).toContain('export type Bad = ProtocolErrorCode.InvalidParams;');
    expect(text).not.toContain('is not exported by the v2 packages');
    expect(text.match(/@mcp-codemod-error SDK 1\.x's ErrorCode names nothing here/g)).toHaveLength(1);
    expect(notes.filter(n => n.includes('is not exported by the v2 packages'))).toEqual([]);
  });
});

describe('ErrorCode as a type, which SDK 2.x split into ProtocolErrorCode and SdkErrorCode', () => {
  const errors = `import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
export interface Failure {
  code: ErrorCode;
  message: string;
}
export const invalid = (message: string): Failure => ({ code: ErrorCode.InvalidParams, message });
export function codeOf(e: McpError): ErrorCode | undefined { return e.code as ErrorCode; }
export const seen: ErrorCode[] = [];
export type Texts = Record<ErrorCode, string>;
export function fail(f: Failure): never {
  throw new McpError(f.code, f.message);
}
`;
  const timeouts = `import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
export const isTimeout = (code: number) => code === ErrorCode.RequestTimeout;
`;

  it('is ProtocolErrorCode when no file of the run names a member the codemod sends to SdkErrorCode, so it stays a number', () => {
    const result = upgradeV1([{ path: '/project/src/errors.ts', text: errors }]);
    const text = result.texts.get('/project/src/errors.ts')!;
    expect(text).toContain('  code: ProtocolErrorCode;');
    expect(text).toContain(
      'export function codeOf(e: ProtocolError): ProtocolErrorCode | undefined { return e.code as ProtocolErrorCode; }',
    );
    expect(text).toContain('export const seen: ProtocolErrorCode[] = [];');
    expect(text).toMatch(/^import \{ ProtocolError, ProtocolErrorCode \} from '@modelcontextprotocol\/server';$/m);
    // one entry per code: its meaning changes with the members, so it stays marked
    expect(text).toMatch(
      /\/\* @mcp-codemod-error SDK 1\.x's ErrorCode names nothing here[^\n]*\*\/\nexport type Texts = Record<ErrorCode, string>;/,
    );
    expect(text.match(/@mcp-codemod-error/g)).toHaveLength(1);
    const notes = result.notes.filter(n => /^ErrorCode in a type written as ProtocolErrorCode: /.test(n.message));
    expect(notes.map(n => n.line)).toEqual([8, 7, 7, 3]);
    expect(notes[0]!.message).toMatch(
      /no SDK 1\.x file upgraded with this one names an ErrorCode member the official codemod sends elsewhere/,
    );
  });

  it('is both enums when another file of the run names one the codemod sends to SdkErrorCode', () => {
    const result = upgradeV1([
      { path: '/project/src/errors.ts', text: errors },
      { path: '/project/src/timeouts.ts', text: timeouts },
    ]);
    const text = result.texts.get('/project/src/errors.ts')!;
    expect(text).toContain('  code: ProtocolErrorCode | SdkErrorCode;');
    expect(text).toContain('export const seen: (ProtocolErrorCode | SdkErrorCode)[] = [];');
    expect(text).toMatch(/^import \{ ProtocolError, ProtocolErrorCode, type SdkErrorCode \} from '@modelcontextprotocol\/server';$/m);
    expect(result.notes).toContainEqual(
      expect.objectContaining({
        line: 3,
        message: expect.stringMatching(
          /the files upgraded with this one name RequestTimeout\); a use that needs a number must narrow it to ProtocolErrorCode$/,
        ),
      }),
    );
  });
});

describe('zod 3 APIs that zod 4, which SDK 2.x needs, dropped', () => {
  it("writes what zod 3 reads alike where the value is certainly zod's, and marks the rest with what zod 4 reads", () => {
    const { text, notes } = upgraded(`import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z, ZodError } from 'zod';
const server = new McpServer({ name: 's', version: '1' });
const Kind = z.enum(['a', 'b']);
server.registerTool('t', { inputSchema: { kind: Kind, name: z.string({ required_error: 'needed', invalid_type_error: 'text' }), errorMap: z.string(), nick: z.ostring() } }, async args => {
  const parsed = z.object({ n: z.number() }).safeParse(args);
  if (!parsed.success) return { content: [{ type: 'text', text: parsed.error.errors.map(e => e.message).join(', ') }] };
  try { z.string().ip().parse('x'); } catch (e) { if (e instanceof ZodError) return { content: [{ type: 'text', text: JSON.stringify(e.formErrors) }] }; }
  return { content: [{ type: 'text', text: Kind.Enum.a }] };
});
export const Deep = z.object({ a: z.object({ b: z.string() }) }).deepPartial();
export type Refined = z.ZodEffects<z.ZodString>;
export const kind = (s: z.ZodTypeAny) => (s._def as { typeName?: string }).typeName;
export const response = { errors: [] as string[] };
export const errors = response.errors;
export const named = Kind.toString() + Kind.constructor.name;
`);
    expect(text).toContain('nick: z.string().optional()');
    expect(text).toContain('parsed.error.issues.map(e => e.message)');
    expect(text).toContain('JSON.stringify(e.flatten())');
    expect(text).toContain('Kind.enum.a');
    // not zod's: left alone
    expect(text).toContain('export const errors = response.errors;');
    // a shape's key named like a param holds a schema
    expect(text).toContain('errorMap: z.string()');
    expect(text).toContain("name: z.string({ error: issue => (issue.input === undefined ? 'needed' : 'text') })");
    expect(text).toMatch(/@mcp-codemod-error \.ip: zod 4, which SDK 2\.x needs, has no z\.string\(\)\.ip\(\)/);
    expect(text).toMatch(/@mcp-codemod-error \.deepPartial: zod 4, which SDK 2\.x needs, has no \.deepPartial\(\)/);
    expect(text).toMatch(/@mcp-codemod-error z\.ZodEffects: zod 4, which SDK 2\.x needs, has no ZodEffects/);
    expect(text).toMatch(/@mcp-codemod-error \.typeName: zod 4, which SDK 2\.x needs, keeps a schema's definition in \._zod\.def/);
    expect(text.match(/@mcp-codemod-error/g)).toHaveLength(4);
    expect(notes).toContainEqual(expect.stringMatching(/^info: \.errors of a ZodError written as \.issues/));
    expect(notes).toContainEqual(expect.stringMatching(/^info: z\.ostring\(\) written as z\.string\(\)\.optional\(\)/));
  });
});

describe("zod 3's error params, which zod 4 reads as one error param", () => {
  it('writes them as zod 4 reads them alike where the factory raises only invalid_type, and marks the rest with why not', () => {
    const { text, notes } = upgraded(`import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
const REQUIRED = 'needed';
let later = 'x';
export const Title = z.string({ required_error: 'a title' }).min(1);
export const Count = z.number({ required_error: REQUIRED, invalid_type_error: \`a number\` });
export const Flag = z.boolean({ invalid_type_error: 'yes or no' });
export const Said = z.string({ required_error: 'r', message: 'm' });
export const Pick = z.enum(['a', 'b'], { required_error: 'pick one' });
export const Mapped = z.string({ errorMap: () => ({ message: 'x' }) });
export const Late = z.string({ required_error: later });
export const Described = z.string({ required_error: 'r', description: 'd' });
export const Shape = z.object({ errorMap: z.string(), required_error: z.string() });
const issue = 'taken';
export const Named = z.string({ required_error: issue });
const server = new McpServer({ name: 's', version: '1' });
`);
    expect(text).toContain(
      "export const Title = z.string({ error: issue => (issue.input === undefined ? 'a title' : undefined) }).min(1);",
    );
    expect(text).toContain('export const Count = z.number({ error: issue => (issue.input === undefined ? REQUIRED : `a number`) });');
    expect(text).toContain("export const Flag = z.boolean({ error: issue => (issue.input === undefined ? undefined : 'yes or no') });");
    // zod 3 gave message over them
    expect(text).toContain("export const Said = z.string({ message: 'm' });");
    expect(text).toContain('export const Named = z.string({ error: zodIssue => (zodIssue.input === undefined ? issue : undefined) });');
    // a shape's keys hold schemas
    expect(text).toContain('z.object({ errorMap: z.string(), required_error: z.string() })');
    expect(text).toMatch(
      /@mcp-codemod-error required_error: [^\n]*not written so here: the issues z\.enum\(\) raises itself are not the same in zod 4[^\n]*\*\/\nexport const Pick/,
    );
    expect(text).toMatch(
      /@mcp-codemod-error errorMap: [^\n]*not written so here: an errorMap is not read alike[^\n]*\*\/\nexport const Mapped/,
    );
    expect(text).toMatch(
      /@mcp-codemod-error required_error: [^\n]*not written so here: later is not a string written out or a const[^\n]*\*\/\nexport const Late/,
    );
    expect(text).toMatch(
      /@mcp-codemod-error required_error: [^\n]*not written so here: the same params hold description[^\n]*\*\/\nexport const Described/,
    );
    expect(text.match(/@mcp-codemod-error/g)).toHaveLength(4);
    expect(notes).toContainEqual(
      expect.stringMatching(/^info: required_error, invalid_type_error of z\.number\(\) written as \{ error: issue => /),
    );
  });
});

describe('modules that import zod and not the SDK, in a package moved to zod 4', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-migrate-zod-users-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  const write = (file: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
    return { path: path.join(dir, file), text };
  };
  const schemas = `import { z } from 'zod';
export const Tags = z.record(z.string());
export const Deep = z.object({ a: z.object({ b: z.string() }) }).deepPartial();
`;
  const server = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { Tags } from './schemas.js';
const server = new McpServer({ name: 's', version: '1' });
server.registerTool('t', { inputSchema: { tags: Tags } }, async () => ({ content: [] }));
`;

  it('get the zod repairs and markers the SDK files get, and only there', async () => {
    const { migrateSources } = await import('../src/pipeline.js');
    write(
      'package.json',
      '{\n  "name": "app",\n  "type": "module",\n  "dependencies": {\n    "@modelcontextprotocol/sdk": "^1.24.0",\n    "zod": "^3.25.76"\n  }\n}\n',
    );
    write('tools/package.json', '{\n  "name": "tools",\n  "dependencies": {\n    "zod": "^3.25.76"\n  }\n}\n');
    const sources = [write('src/server.ts', server), write('src/schemas.ts', schemas), write('tools/schemas.ts', schemas)];
    const result = await migrateSources(sources, { cwd: dir });
    const after = (file: string) => result.changes.find(c => c.path === path.join(dir, file))?.after;
    expect(after('src/schemas.ts')).toContain('export const Tags = z.record(z.string(), z.string());');
    expect(after('src/schemas.ts')).toMatch(/\/\* @mcp-codemod-error \.deepPartial: zod 4[^\n]*\*\/\nexport const Deep/);
    expect(result.report.upgrade.filter(n => n.file === path.join('src', 'schemas.ts')).map(n => n.level)).toEqual(['info', 'warning']);
    // a package the run does not move to SDK 2.x keeps its zod
    expect(after('tools/schemas.ts')).toBeUndefined();
  });

  it('are left as they are where the package already declares zod 4', async () => {
    const { migrateSources } = await import('../src/pipeline.js');
    write(
      'package.json',
      '{\n  "name": "app",\n  "type": "module",\n  "dependencies": {\n    "@modelcontextprotocol/sdk": "^1.24.0",\n    "zod": "^4.2.0"\n  }\n}\n',
    );
    const result = await migrateSources([write('src/server.ts', server), write('src/schemas.ts', schemas)], { cwd: dir });
    expect(result.changes.some(c => c.path === path.join(dir, 'src', 'schemas.ts'))).toBe(false);
  });
});

describe('leftovers of the upgrade that throw as the server starts', () => {
  it('keys a registration made through a cast by the method string the codemod writes, and drops the schema import', () => {
    const { text, notes } = upgraded(`import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { GetPromptRequestSchema, ListPromptsRequestSchema as ListPrompts, LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
const server = new McpServer({ name: 's', version: '1' });
(server.server.setRequestHandler as any)(ListPrompts, async () => ({ prompts: [] }));
(<any>server.server.setRequestHandler)(GetPromptRequestSchema, async () => ({ messages: [] }));
(server.server as any)['setNotificationHandler'](LoggingMessageNotificationSchema, () => undefined);
`);
    expect(text).toContain("(server.server.setRequestHandler as any)('prompts/list', async () => ({ prompts: [] }));");
    expect(text).toContain("(<any>server.server.setRequestHandler)('prompts/get', async () => ({ messages: [] }));");
    expect(text).toContain("(server.server as any)['setNotificationHandler']('notifications/message', () => undefined);");
    expect(text).not.toMatch(/RequestSchema|NotificationSchema|ListPrompts\b|@mcp-codemod-error/);
    expect(notes).toContainEqual(
      "info: setRequestHandler through a cast, keyed by ListPrompts: keyed by its method string 'prompts/list', which SDK 2.x takes",
    );
  });

  it('marks a key it cannot name as failing at start-up, and keeps an import still read elsewhere', () => {
    const { text } = upgraded(`import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ListTasksRequestSchema, ListPromptsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
const server = new McpServer({ name: 's', version: '1' });
const PingSchema = z.object({ method: z.literal('acme/ping') });
(server.server.setRequestHandler as any)(PingSchema, async () => ({}));
(server.server.setRequestHandler as any)(ListTasksRequestSchema, async () => ({ tasks: [] }));
(server.server.setRequestHandler as any)(ListPromptsRequestSchema, async () => ({ prompts: [] }));
(server.server.setRequestHandler as any)('tools/list', async () => ({ tools: [] }));
export const shape = ListPromptsRequestSchema.shape;
`);
    expect(
      text.match(
        /@mcp-codemod-error (PingSchema|ListTasksRequestSchema) keys a setRequestHandler call made through a cast: [^\n]*so the server throws at start-up until this is migrated/g,
      ),
    ).toHaveLength(2);
    expect(text).toContain("(server.server.setRequestHandler as any)('prompts/list', async () => ({ prompts: [] }));");
    expect(text).toMatch(/import \{[^}]*ListPromptsRequestSchema[^}]*\} from '@modelcontextprotocol\/(core|server)'/);
    expect(text.match(/@mcp-codemod-error/g)).toHaveLength(2);
  });

  it('marks a name whose SDK 1.x import the codemod removed, at its first read, as failing at start-up when that runs at load', () => {
    const { text, notes } = upgraded(`import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { InMemoryTaskStore, InMemoryTaskMessageQueue } from '@modelcontextprotocol/sdk/experimental/tasks';
type Store = InMemoryTaskStore;
export function queue() {
  return new InMemoryTaskMessageQueue();
}
const taskStore: Store = new InMemoryTaskStore();
const server = new McpServer({ name: 's', version: '1' });
export { server, taskStore };
`);
    expect(text).toContain(
      '/* @mcp-codemod-error InMemoryTaskStore was imported from SDK 1.x by an import the official codemod removed (SDK 2.x has no such export): this read is a ReferenceError as the module loads, so the server throws at start-up until this is migrated; replace what it gave, then remove this marker */\nconst taskStore',
    );
    expect(text).toContain(
      '/* @mcp-codemod-error InMemoryTaskMessageQueue was imported from SDK 1.x by an import the official codemod removed (SDK 2.x has no such export): this read is a ReferenceError when it runs; replace what it gave, then remove this marker */\n  return new InMemoryTaskMessageQueue();',
    );
    expect(notes.filter(n => /^warning: .*was imported from SDK 1\.x by an import the official codemod removed/.test(n))).toHaveLength(2);
  });
});

describe('handler context members read through a cast', () => {
  it('moves each read where SDK 2.x keeps it, the cast narrowed to what it read', () => {
    const { text, notes } = upgraded(`import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
const server = new McpServer({ name: 's', version: '1' });
server.registerTool('count', { inputSchema: { n: z.number() } }, async ({ n }, extra) => {
  const signal = (extra as { signal?: AbortSignal }).signal;
  const token = (extra as any)._meta?.progressToken;
  const notify = (extra as unknown as { sendNotification: (n: unknown) => Promise<void> }).sendNotification;
  if (!signal?.aborted && token !== undefined) await notify({ method: 'notifications/progress', params: { progressToken: token, progress: n } });
  return { content: [] };
});
`);
    expect(text).toContain("const signal = (ctx.mcpReq.signal as ({ signal?: AbortSignal })['signal']);");
    expect(text).toContain('const token = (ctx.mcpReq._meta as any)?.progressToken;');
    expect(text).toContain(
      "const notify = (ctx.mcpReq.notify as unknown as ({ sendNotification: (n: unknown) => Promise<void> })['sendNotification']);",
    );
    expect(text).not.toContain('@mcp-codemod-error');
    expect(notes).toContainEqual(expect.stringMatching(/^info: the handler context "ctx" read through a cast \(/));
  });

  it('marks reads it cannot move: a context typed unknown, and a local holding the cast', () => {
    const { text } = upgraded(`import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
const server = new McpServer({ name: 's', version: '1' });
server.registerTool('wait', { inputSchema: { ms: z.number() } }, async ({ ms }, context: unknown) => {
  const aborted = (context as { signal: AbortSignal }).signal.aborted;
  return { content: [{ type: 'text', text: String(aborted || ms) }] };
});
server.registerTool('send', { inputSchema: { ms: z.number() } }, async ({ ms }, extra) => {
  const c = extra as unknown as { sendNotification: (n: unknown) => Promise<void> };
  await c.sendNotification({ method: 'notifications/message', params: { level: 'info', data: ms } });
  return { content: [] };
});
`);
    expect(text).toContain(
      '/* @mcp-codemod-error the handler context "context" is read through a cast ((context as { signal: AbortSignal }).signal): SDK 2.x moved these members (signal → context.mcpReq.signal)',
    );
    expect(text).toContain(
      '/* @mcp-codemod-error the handler context "ctx" is read through a cast (c.sendNotification): SDK 2.x moved these members (sendNotification → ctx.mcpReq.notify)',
    );
    expect(text).toContain('(context as { signal: AbortSignal }).signal.aborted');
  });
});

describe('schemas of tools zod 4 cannot write as JSON Schema', () => {
  const ZOD_SERVER = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
const Range = z.object({ from: z.coerce.date(), to: z.coerce.date().optional() });
const server = new McpServer({ name: 's', version: '1' });
server.registerTool('events', { inputSchema: { range: Range } }, async ({ range }) => ({ content: [{ type: 'text', text: range.from.toISOString() }] }));
server.registerTool('since', { inputSchema: { since: z.date() } }, async ({ since }) => ({ content: [{ type: 'text', text: since.toISOString() }] }));
server.registerTool('until', { inputSchema: z.object({ until: z.coerce.date() }) }, async ({ until }) => ({ content: [{ type: 'text', text: until.toISOString() }] }));
server.registerTool('big', { inputSchema: { n: z.coerce.bigint() } }, async ({ n }) => ({ content: [{ type: 'text', text: String(n) }] }));
export const Row = z.object({ at: z.coerce.date() });
`;

  it("writes a registered schema's z.coerce.date() as a string piped to it, marks z.date(), and leaves schemas no registration is given", () => {
    const { text, notes } = upgraded(ZOD_SERVER, '/project/src/events.ts');
    expect(text).toContain(
      'const Range = z.object({ from: z.string().pipe(z.coerce.date()), to: z.string().pipe(z.coerce.date()).optional() });',
    );
    expect(text).toMatch(
      /@mcp-codemod-error z\.date\(\): zod 4, which SDK 2\.x needs, cannot write a Date as JSON Schema, so once zod is raised tools\/list \(prompts\/list\) fails for every tool/,
    );
    expect(text).toContain('inputSchema: z.object({ until: z.string().pipe(z.coerce.date()) })');
    expect(text).toMatch(/@mcp-codemod-error z\.coerce\.bigint\(\): zod 4, which SDK 2\.x needs, cannot write a bigint as JSON Schema/);
    expect(text).toContain('export const Row = z.object({ at: z.coerce.date() });');
    expect(notes.filter(n => /written as z\.string\(\)\.pipe\(z\.coerce\.date\(\)\)/.test(n))).toHaveLength(3);
  });

  it('what it claims, on zod 4: a Date fails the JSON Schema the SDK asks for; the string piped to z.coerce.date() is written as a string and reads the same Date', async () => {
    const { z } = await import('zod');
    const input = (schema: { '~standard': unknown }) =>
      (schema['~standard'] as { jsonSchema: { input(o: object): unknown } }).jsonSchema.input({ target: 'draft-2020-12' });
    expect(() => input(z.object({ from: z.coerce.date() }))).toThrow(/Date cannot be represented in JSON Schema/);
    expect(input(z.object({ from: z.string().pipe(z.coerce.date()) }))).toMatchObject({ properties: { from: { type: 'string' } } });
    const sent = '2026-07-28T10:00:00Z';
    expect(z.string().pipe(z.coerce.date()).parse(sent).getTime()).toBe(z.coerce.date().parse(sent).getTime());
  });
});
