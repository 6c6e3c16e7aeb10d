import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { ask, resumable, verifyRequestState } from './mcp-migrate-state.js';

// A class tool that takes the server out of its field only to ask with it (`const { server } = this.mcp;`):
// the declaration stays, and both questions are asked through it.
class RenameTool {
  constructor(private readonly mcp: McpServer) {
    resumable(this.mcp).registerTool('rename', { inputSchema: z.object({ file: z.string() }) }, this.rename.bind(this));
  }

  async rename({ file }: { file: string }) {
    const { server } = this.mcp;
    const name = await ask(server, 'name').elicitInput({
      message: `New name for ${file}?`,
      requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
    });
    if (name.action !== 'accept') return { content: [{ type: 'text' as const, text: `Kept ${file}` }] };
    const confirm = await ask(server, 'confirm').elicitInput({
      message: `Rename ${file} to ${name.content?.name}?`,
      requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
    });
    const renamed = confirm.action === 'accept' && confirm.content?.ok === true;
    return { content: [{ type: 'text' as const, text: renamed ? `Renamed ${file} to ${name.content?.name}` : `Kept ${file}` }] };
  }
}

export const server = new McpServer({ name: 'files', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });
new RenameTool(server);
