/**
 * src/upgrade/repairs/typeImports.ts: `import('…')` types (JSDoc ones too) the official codemod leaves on SDK 1.x,
 * pointed where it sends the import.
 */
import { describe, expect, it } from 'vitest';
import { upgraded } from '../support.js';

describe('types the official codemod leaves on SDK 1.x', () => {
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
