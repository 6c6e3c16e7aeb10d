/**
 * src/upgrade/repairs/castHandlerKeys.ts: a registration made through a cast, which the official codemod leaves
 * keyed by a 1.x schema that throws as the server starts, keyed by its method string.
 */
import { describe, expect, it } from 'vitest';
import { upgraded } from '../support.js';

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
});
