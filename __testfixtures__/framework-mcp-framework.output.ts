// mcp-framework's MCPTool helpers: the framework sends the request, so each call is marked with what
// mcp-framework offers for MCP 2026-07-28.
import { MCPTool } from 'mcp-framework';
import { z } from 'zod';

interface DraftInput {
  message: string;
}

class DraftReplyTool extends MCPTool<DraftInput> {
  name = 'draft_reply';
  description = 'Draft a reply with the client model';
  schema = { message: { type: z.string(), description: 'The message to answer' } };

  async execute(input: DraftInput) {
    // mcp-migrate: sampling request through mcp-framework's this.samplingRequest(): no mcp-framework release serves MCP 2026-07-28 yet (0.2.22 is built on SDK 1.x), so this keeps working for 2025-era clients only; to serve 2026-07-28 clients, register the tool on an @modelcontextprotocol/server McpServer (registerTool) and return inputRequired({ inputRequests: { key: inputRequired.elicit({...}) | inputRequired.createMessage({...}) } }) from the tool and read the answer on the retry with acceptedContent(...) or inputResponse(...) (or write it there with server.server.elicitInput/createMessage and run mcp-migrate again)
    const result = await this.samplingRequest({
      messages: [{ role: 'user', content: { type: 'text', text: `Draft a reply to: ${input.message}` } }],
      maxTokens: 80,
    });
    if (result.content.type !== 'text') return '(no draft)';
    // mcp-migrate: elicitation request through mcp-framework's this.elicit(): no mcp-framework release serves MCP 2026-07-28 yet (0.2.22 is built on SDK 1.x), so this keeps working for 2025-era clients only; to serve 2026-07-28 clients, register the tool on an @modelcontextprotocol/server McpServer (registerTool) and return inputRequired({ inputRequests: { key: inputRequired.elicit({...}) | inputRequired.createMessage({...}) } }) from the tool and read the answer on the retry with acceptedContent(...) or inputResponse(...) (or write it there with server.server.elicitInput/createMessage and run mcp-migrate again)
    const answer = await this.elicit(`Keep this draft? ${result.content.text}`, { keep: { type: 'boolean', title: 'Keep it' } });
    return answer.action === 'accept' ? result.content.text : '(dropped)';
  }
}

// A project class of its own that happens to have an elicit method: not mcp-framework's.
class Survey {
  async elicit(question: string): Promise<string> {
    return question;
  }
  async run(): Promise<string> {
    return this.elicit('How was it?');
  }
}

export { DraftReplyTool, Survey };
