import { MCPTool } from 'mcp-framework';
import { z } from 'zod';

interface DraftInput {
  message: string;
}

class DraftReplyTool extends MCPTool<DraftInput> {
  name = 'draft_reply';
  description = 'Draft a reply to a message with the client model';
  schema = {
    message: { type: z.string(), description: 'The message to answer' },
  };

  async execute(input: DraftInput) {
    const result = await this.samplingRequest({
      messages: [{ role: 'user', content: { type: 'text', text: `Draft a short reply to: ${input.message}` } }],
      maxTokens: 80,
    });
    return result.content.type === 'text' ? result.content.text : '(no draft)';
  }
}

export default DraftReplyTool;
