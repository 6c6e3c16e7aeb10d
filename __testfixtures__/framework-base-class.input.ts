// A framework's own source: a base class gives its tools request helpers that send the request and
// return the answer. The helpers are the API to redesign; each subclass call is reported with them.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { CreateMessageRequest } from '@modelcontextprotocol/sdk/types.js';

export abstract class BaseTool {
  constructor(protected server: Server) {}

  protected async samplingRequest(params: CreateMessageRequest['params']) {
    return this.server.createMessage(params);
  }

  protected async confirm(message: string): Promise<boolean> {
    const answer = await this.server.elicitInput({ message, requestedSchema: { type: 'object', properties: {} } });
    return answer.action === 'accept';
  }

  abstract execute(input: { text: string }): Promise<string>;
}

export class DraftTool extends BaseTool {
  async execute(input: { text: string }): Promise<string> {
    const result = await this.samplingRequest({ messages: [{ role: 'user', content: { type: 'text', text: input.text } }], maxTokens: 50 });
    return result.content.type === 'text' ? result.content.text : '';
  }
}

export class SendTool extends BaseTool {
  async execute(input: { text: string }): Promise<string> {
    const send = await this.confirm(`Send "${input.text}"?`);
    return send ? 'sent' : 'kept';
  }
}
