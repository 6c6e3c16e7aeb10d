// Overrides of execute() that a base class's handler runs, each asked where it is written. preview() runs
// execute() too, outside any request: there it still asks push-style, which only a 2025-era client answers,
// and the report says so in a note. StampTool's Date, made before its question, is journaled: made once in
// the call, the same Date on every round.
import { McpServer } from '@modelcontextprotocol/server';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { ask, journaled, resumable, verifyRequestState } from './mcp-migrate-state.js';

/** The handler only returns this.execute(...); preview() calls execute() too. */
abstract class PreviewedTool {
  abstract readonly name: string;

  constructor(protected readonly server: McpServer) {}

  abstract execute(args: { text: string }): Promise<CallToolResult>;

  register(): void {
    resumable(this.server).registerTool(this.name, { inputSchema: z.object({ text: z.string() }) }, async args => this.execute(args));
  }

  async preview(text: string): Promise<string> {
    const result = await this.execute({ text });
    return JSON.stringify(result.content);
  }
}

export class TranslateTool extends PreviewedTool {
  readonly name = 'translate';

  async execute({ text }: { text: string }): Promise<CallToolResult> {
    const result = await ask(this.server.server, 'result').createMessage({
      messages: [{ role: 'user', content: { type: 'text', text: `Translate: ${text}` } }],
      maxTokens: 60,
    });
    return { content: [{ type: 'text', text: result.content.type === 'text' ? result.content.text : '' }] };
  }
}

/** Two overrides of execute(), one of them keeping a Date across its question. */
abstract class StampedTool {
  abstract readonly name: string;

  constructor(protected readonly server: McpServer) {}

  abstract execute(args: { text: string }): Promise<CallToolResult>;

  register(): void {
    resumable(this.server).registerTool(this.name, { inputSchema: z.object({ text: z.string() }) }, async args => this.execute(args));
  }
}

export class ConfirmTool extends StampedTool {
  readonly name = 'confirm';

  async execute({ text }: { text: string }): Promise<CallToolResult> {
    const answer = await ask(this.server.server, 'answer').elicitInput({ message: `Confirm ${text}?`, requestedSchema: { type: 'object', properties: {} } });
    return { content: [{ type: 'text', text: answer.action }] };
  }
}

export class StampTool extends StampedTool {
  readonly name = 'stamp';

  async execute({ text }: { text: string }): Promise<CallToolResult> {
    const started = journaled(() => new Date());
    const answer = await ask(this.server.server, 'answer').elicitInput({ message: `Stamp ${text}?`, requestedSchema: { type: 'object', properties: {} } });
    return { content: [{ type: 'text', text: `${answer.action}, stamped ${Math.round((Date.now() - started.getTime()) / 3_600_000)} h ago` }] };
  }
}

export const server = new McpServer({ name: 'fixture', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });
new TranslateTool(server).register();
new ConfirmTool(server).register();
new StampTool(server).register();
