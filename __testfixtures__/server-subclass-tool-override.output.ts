import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';

/**
 * The server's class declares SDK 1.x's tool() again, to log every registration. The official codemod turns
 * server.tool(...) into server.registerTool(...), which skips this tool(): the callback's request is marked,
 * not migrated as the SDK's handler.
 */
class LoggingServer extends McpServer {
  override tool(...args: any[]): any {
    console.error(`registering tool ${String(args[0])}`);
    // @ts-ignore one call for every overload
    /* @mcp-codemod-error Could not automatically migrate .tool() call. Manual migration required. */
    return super.tool(...args);
  }
}

export const server = new LoggingServer({ name: 'logging', version: '1.0.0' });

server.registerTool('confirm', { description: 'Ask the user to confirm', inputSchema: z.object({ what: z.string() }) }, async ({ what }: { what: string }) => {
  // mcp-migrate: elicitation request in a callback passed to registerTool() on an instance of a class that declares registerTool() of its own: that registerTool() is not the SDK's registration and decides what the callback gets, so it is not migrated as a handler; migrate by hand
  const answer = await server.server.elicitInput({
    message: `Really ${what}?`,
    requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
  });
  return { content: [{ type: 'text', text: answer.action === 'accept' && answer.content?.ok ? 'done' : 'skipped' }] };
});
