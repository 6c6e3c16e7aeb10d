import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';

const server = new McpServer({ name: 'request-in-class-accessor', version: '1.0.0' });

const confirmSchema = { type: 'object' as const, properties: { ok: { type: 'boolean' as const } }, required: ['ok'] };

// A request in a getter (or a constructor, a setter, a static block) is not at module level: its marker says where it is.
class Confirmer {
  constructor(private readonly mcp: McpServer) {}

  get confirmation() {
    // mcp-migrate: elicitation request in the getter confirmation of class Confirmer, not in a handler: a property read, an assignment or a `new` cannot return input_required, so it is left as it is; make it a method the handler awaits, or migrate by hand
    return this.mcp.server.elicitInput({ message: 'Go ahead?', requestedSchema: confirmSchema });
  }
}

server.registerTool('go', { inputSchema: z.object({ what: z.string() }) }, async ({ what }) => {
  const answer = await new Confirmer(server).confirmation;
  return { content: [{ type: 'text', text: `${what}: ${answer.action}` }] };
});
