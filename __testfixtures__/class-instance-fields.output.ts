// Requests in methods of class instances the handlers reach through fields, asked where they are written.
// What a method changes on its instance before a question outlives the round: a count (`this.#asked++`) is
// journaled, done once in the call, so the question it numbers reads the same on every round; a field set to
// what the next round sets it to again (`this.lastQuestion = question`) is simply set again.
import { McpServer } from '@modelcontextprotocol/server';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { ask, journaled, resumable, verifyRequestState } from './mcp-migrate-state.js';

/** One class per tool: the handler registered in the base class runs whichever execute() the instance has, and logs after it. */
abstract class BaseTool {
  abstract readonly name: string;

  constructor(protected readonly server: McpServer) {}

  abstract execute(args: { text: string }): Promise<CallToolResult>;

  register(): void {
    resumable(this.server).registerTool(this.name, { inputSchema: z.object({ text: z.string() }) }, async args => {
      const result = await this.execute(args);
      console.error(`${this.name} answered`);
      return result;
    });
  }
}

export class SummaryTool extends BaseTool {
  readonly name = 'summarize';

  async execute({ text }: { text: string }): Promise<CallToolResult> {
    const result = await ask(this.server.server, 'result').createMessage({
      messages: [{ role: 'user', content: { type: 'text', text: `Summarize: ${text}` } }],
      maxTokens: 60,
    });
    return { content: [{ type: 'text', text: result.content.type === 'text' ? result.content.text : '' }] };
  }
}

class Asker {
  #asked = 0;
  lastQuestion = '';

  constructor(private readonly server: McpServer) {}

  /** Counts its questions in a #private field, before asking. */
  async askCounted(question: string): Promise<string> {
    journaled(() => this.#asked++);
    const answer = await ask(this.server.server, 'answer').elicitInput({ message: `${question} (#${this.#asked})`, requestedSchema: { type: 'object', properties: { a: { type: 'string' } } } });
    return answer.action === 'accept' ? String(answer.content?.a) : '';
  }

  /** Writes a field before the question and reads it after. */
  async askRemembered(question: string): Promise<string> {
    this.lastQuestion = question;
    const answer = await ask(this.server.server, 'answer').elicitInput({ message: question, requestedSchema: { type: 'object', properties: { a: { type: 'string' } } } });
    return answer.action === 'accept' ? `${this.lastQuestion}: ${String(answer.content?.a)}` : '';
  }
}

export class AskTools {
  /** Replaced by reset(): each round reads whichever asker the field holds then. */
  private swappable: Asker;
  private readonly asker: Asker;

  constructor(private readonly server: McpServer) {
    this.asker = new Asker(server);
    this.swappable = new Asker(server);
  }

  reset(): void {
    this.swappable = new Asker(this.server);
  }

  register(): void {
    resumable(this.server).registerTool('counted', { inputSchema: z.object({ q: z.string() }) }, async ({ q }) => {
      const answer = await this.asker.askCounted(q);
      return { content: [{ type: 'text', text: answer }] };
    });
    resumable(this.server).registerTool('remembered', { inputSchema: z.object({ q: z.string() }) }, async ({ q }) => {
      const answer = await this.asker.askRemembered(q);
      return { content: [{ type: 'text', text: answer }] };
    });
    resumable(this.server).registerTool('swapped', { inputSchema: z.object({ q: z.string() }) }, async ({ q }) => {
      const answer = await this.swappable.askRemembered(q);
      return { content: [{ type: 'text', text: answer }] };
    });
  }
}

export const server = new McpServer({ name: 'fixture', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });
new SummaryTool(server).register();
new AskTools(server).register();
