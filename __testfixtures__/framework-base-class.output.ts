// A framework's own source: a base class gives its tools request helpers that send the request and
// return the answer. The helpers are the API to redesign; each subclass call is reported with them.
import { Server } from '@modelcontextprotocol/server';
import type { CreateMessageRequest } from '@modelcontextprotocol/server';

export abstract class BaseTool {
  constructor(protected server: Server) {}

  protected async samplingRequest(params: CreateMessageRequest['params']) {
    // mcp-migrate: base-class request helper that subclasses call: BaseTool.samplingRequest() sends a sampling request and returns the answer to the subclass that calls it (1 subclass call is marked where made); MCP 2026-07-28 has no server-initiated requests: a tool returns inputRequired({ inputRequests }) and gets the answers on the retry (ctx.mcpReq.inputResponses), so redesign this API that way (e.g. a helper that builds the input request, and one that reads its answer), then move each subclass's tool onto it; left as it is, it serves 2025-era clients only
    return this.server.createMessage(params);
  }

  protected async confirm(message: string): Promise<boolean> {
    // mcp-migrate: base-class request helper that subclasses call: BaseTool.confirm() sends an elicitation request and returns the answer to the subclass that calls it (1 subclass call is marked where made); MCP 2026-07-28 has no server-initiated requests: a tool returns inputRequired({ inputRequests }) and gets the answers on the retry (ctx.mcpReq.inputResponses), so redesign this API that way (e.g. a helper that builds the input request, and one that reads its answer), then move each subclass's tool onto it; left as it is, it serves 2025-era clients only
    const answer = await this.server.elicitInput({ message, requestedSchema: { type: 'object', properties: {} } });
    return answer.action === 'accept';
  }

  abstract execute(input: { text: string }): Promise<string>;
}

export class DraftTool extends BaseTool {
  async execute(input: { text: string }): Promise<string> {
    // mcp-migrate: call of a base-class request helper: calls BaseTool.samplingRequest(), which sends a sampling request and is an API to redesign for MCP 2026-07-28 (see its marker); migrate this call with it
    const result = await this.samplingRequest({ messages: [{ role: 'user', content: { type: 'text', text: input.text } }], maxTokens: 50 });
    return result.content.type === 'text' ? result.content.text : '';
  }
}

export class SendTool extends BaseTool {
  async execute(input: { text: string }): Promise<string> {
    // mcp-migrate: call of a base-class request helper: calls BaseTool.confirm(), which sends an elicitation request and is an API to redesign for MCP 2026-07-28 (see its marker); migrate this call with it
    const send = await this.confirm(`Send "${input.text}"?`);
    return send ? 'sent' : 'kept';
  }
}
