import { McpServer } from '@modelcontextprotocol/server';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { z } from 'zod';

/** The handler only returns this.execute(...), but preview() calls execute() too: it would get input_required results. */
abstract class PreviewedTool {
  abstract readonly name: string;

  constructor(protected readonly server: McpServer) {}

  abstract execute(args: { text: string }): Promise<CallToolResult>;

  register(): void {
    // mcp-migrate: execute() is not migrated as the delegate of this handler: it is also called in preview() of PreviewedTool, which would get the input_required results it returns once migrated, so the requests it makes are not migrated; give that caller a function of its own, or migrate by hand
    this.server.registerTool(this.name, { inputSchema: z.object({ text: z.string() }) }, async args => this.execute(args));
  }

  async preview(text: string): Promise<string> {
    const result = await this.execute({ text });
    return JSON.stringify(result.content);
  }
}

export class TranslateTool extends PreviewedTool {
  readonly name = 'translate';

  async execute({ text }: { text: string }): Promise<CallToolResult> {
    // mcp-migrate: sampling request in helper execute(), not directly in a handler: no handler call reaching it was inlined; 1 call reaching it is marked where it is made; this body is left as it is and still sends the request to those callers and any caller outside the project: migrate it by hand for them, or remove it when nothing calls it
    const result = await this.server.server.createMessage({
      messages: [{ role: 'user', content: { type: 'text', text: `Translate: ${text}` } }],
      maxTokens: 60,
    });
    return { content: [{ type: 'text', text: result.content.type === 'text' ? result.content.text : '' }] };
  }
}

/** Every class's execute() is migrated, or none is: StampTool's cannot be (a Date lives across its question). */
abstract class StampedTool {
  abstract readonly name: string;

  constructor(protected readonly server: McpServer) {}

  abstract execute(args: { text: string }): Promise<CallToolResult>;

  register(): void {
    this.server.registerTool(this.name, { inputSchema: z.object({ text: z.string() }) }, async args => this.execute(args));
  }
}

export class ConfirmTool extends StampedTool {
  readonly name = 'confirm';

  async execute({ text }: { text: string }): Promise<CallToolResult> {
    // mcp-migrate: execute() of ConfirmTool not migrated: the tools/call handler registered in StampedTool.register() runs the execute() of whichever class the instance is (ConfirmTool, StampTool), and execute() of StampTool cannot be migrated (local "started" (a Date) is live across the await and cannot travel in requestState; recompute it after the await or keep it in a server-side store), so none is; make that one migratable, or migrate by hand
    const answer = await this.server.server.elicitInput({ message: `Confirm ${text}?`, requestedSchema: { type: 'object', properties: {} } });
    return { content: [{ type: 'text', text: answer.action }] };
  }
}

export class StampTool extends StampedTool {
  readonly name = 'stamp';

  async execute({ text }: { text: string }): Promise<CallToolResult> {
    const started = new Date();
    // mcp-migrate: execute() of StampTool not migrated: local "started" (a Date) is live across the await and cannot travel in requestState; recompute it after the await or keep it in a server-side store
    const answer = await this.server.server.elicitInput({ message: `Stamp ${text}?`, requestedSchema: { type: 'object', properties: {} } });
    return { content: [{ type: 'text', text: `${started.toISOString()} ${answer.action}` }] };
  }
}

export const server = new McpServer({ name: 'fixture', version: '1.0.0' });
new TranslateTool(server).register();
new ConfirmTool(server).register();
new StampTool(server).register();
