import { McpServer, ResourceTemplate, completable } from '@modelcontextprotocol/server';
import { z } from 'zod';

const server = new McpServer({ name: 'request-in-sdk-callbacks', version: '1.0.0' });

// Callbacks the SDK runs for resources/list and completion/complete, which cannot return input_required:
// each marker says which request its callback answers.
server.registerResource(
  'files',
  new ResourceTemplate('file://{path}', {
    list: async () => {
      // mcp-migrate: roots request in the list callback of a ResourceTemplate, which answers resources/list, not tools/call, prompts/get or resources/read: only tools/call, prompts/get and resources/read can return input_required; move the request into one of those
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
    argsSchema: z.object({
          root: completable(z.string(), async () => {
            // mcp-migrate: roots request in the completion callback of completable(), which answers completion/complete, not tools/call, prompts/get or resources/read: only tools/call, prompts/get and resources/read can return input_required; move the request into one of those
            const { roots } = await server.server.listRoots();
            return roots.map(r => r.uri);
          }),
        }),
  },
  async ({ root }) => ({ messages: [{ role: 'user', content: { type: 'text', text: root } }] }),
);
