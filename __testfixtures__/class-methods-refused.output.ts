import { McpServer } from '@modelcontextprotocol/server';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { z } from 'zod';

/**
 * One class per tool: the handler registered in the base class runs whichever execute() the instance has,
 * and does more than return its result (a handler that only returns it hands it its context instead).
 */
abstract class BaseTool {
  abstract readonly name: string;

  constructor(protected readonly server: McpServer) {}

  abstract execute(args: { text: string }): Promise<CallToolResult>;

  register(): void {
    this.server.registerTool(this.name, { inputSchema: z.object({ text: z.string() }) }, async args => {
      // mcp-migrate: execute() is not inlined: this.execute(...) runs the execute() of whichever class the instance is (SummaryTool), so no one body can be inlined into the handler, and the requests they make are not migrated; register each class's tool with a handler of its own that calls its execute() (that call is inlined), or migrate by hand
      const result = await this.execute(args);
      console.error(`${this.name} answered`);
      return result;
    });
  }
}

export class SummaryTool extends BaseTool {
  readonly name = 'summarize';

  async execute({ text }: { text: string }): Promise<CallToolResult> {
    // mcp-migrate: sampling request in helper execute(), not directly in a handler: no handler call reaching it was inlined; 1 call reaching it is marked where it is made; this body is left as it is and still sends the request to those callers and any caller outside the project: migrate it by hand for them, or remove it when nothing calls it
    const result = await this.server.server.createMessage({
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

  /** Reads a #private field: the handler of another class cannot. */
  async askCounted(question: string): Promise<string> {
    this.#asked++;
    // mcp-migrate: elicitation request in helper askCounted(), not directly in a handler: no handler call reaching it was inlined; 1 call reaching it is marked where it is made; this body is left as it is and still sends the request to those callers and any caller outside the project: migrate it by hand for them, or remove it when nothing calls it
    const answer = await this.server.server.elicitInput({ message: `${question} (#${this.#asked})`, requestedSchema: { type: 'object', properties: { a: { type: 'string' } } } });
    return answer.action === 'accept' ? String(answer.content?.a) : '';
  }

  /** Writes a field before the question and reads it after: a later round would read the instance. */
  async askRemembered(question: string): Promise<string> {
    this.lastQuestion = question;
    // mcp-migrate: elicitation request in helper askRemembered(), not directly in a handler: no handler call reaching it was inlined; 2 calls reaching it are marked where they are made; this body is left as it is and still sends the request to those callers and any caller outside the project: migrate it by hand for them, or remove it when nothing calls it
    const answer = await this.server.server.elicitInput({ message: question, requestedSchema: { type: 'object', properties: { a: { type: 'string' } } } });
    return answer.action === 'accept' ? `${this.lastQuestion}: ${String(answer.content?.a)}` : '';
  }
}

export class AskTools {
  /** Replaced by reset(): a later round could find another asker here. */
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
    this.server.registerTool('counted', { inputSchema: z.object({ q: z.string() }) }, async ({ q }) => {
      // mcp-migrate: askCounted() is not inlined: it reads this.#asked, a #private field that only code of its own class can reach, so its elicitation request is not migrated; make it a private field (private, not #) or read it in a method the handler does not need inlined, or migrate by hand
      const answer = await this.asker.askCounted(q);
      return { content: [{ type: 'text', text: answer }] };
    });
    this.server.registerTool('remembered', { inputSchema: z.object({ q: z.string() }) }, async ({ q }) => {
      // mcp-migrate: askRemembered() is not inlined: it writes this.lastQuestion and reads it back (a later round would read the instance's field, which another call may have changed in between, or another server instance holds), so its elicitation request is not migrated; keep the value in a local of the method, or migrate by hand
      const answer = await this.asker.askRemembered(q);
      return { content: [{ type: 'text', text: answer }] };
    });
    this.server.registerTool('swapped', { inputSchema: z.object({ q: z.string() }) }, async ({ q }) => {
      // mcp-migrate: askRemembered() is not inlined: it is called through this.swappable, which is assigned outside the constructor (a later round could find another object there), so its elicitation request is not migrated; make the field readonly (set it once, in the constructor), or migrate by hand
      const answer = await this.swappable.askRemembered(q);
      return { content: [{ type: 'text', text: answer }] };
    });
  }
}

export const server = new McpServer({ name: 'fixture', version: '1.0.0' });
new SummaryTool(server).register();
new AskTools(server).register();
