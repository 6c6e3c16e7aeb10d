import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { completable } from '@modelcontextprotocol/sdk/server/completable.js';
import { z } from 'zod';

const server = new McpServer({ name: 'request-in-sdk-callbacks', version: '1.0.0' });

// Callbacks the SDK runs for resources/list and completion/complete, which cannot return input_required:
// each marker says which request its callback answers.
server.registerResource(
  'files',
  new ResourceTemplate('file://{path}', {
    list: async () => {
      const { roots } = await server.server.listRoots();
      return { resources: roots.map(r => ({ uri: r.uri, name: r.name ?? r.uri })) };
    },
  }),
  {},
  async uri => ({ contents: [{ uri: uri.href, text: uri.href }] }),
);

server.registerPrompt(
  'pick',
  {
    argsSchema: {
      root: completable(z.string(), async () => {
        const { roots } = await server.server.listRoots();
        return roots.map(r => r.uri);
      }),
    },
  },
  async ({ root }) => ({ messages: [{ role: 'user', content: { type: 'text', text: root } }] }),
);
