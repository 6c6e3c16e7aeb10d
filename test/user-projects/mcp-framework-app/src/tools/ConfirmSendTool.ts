import { MCPTool } from 'mcp-framework';
import { z } from 'zod';

interface SendInput {
  to: string;
}

class ConfirmSendTool extends MCPTool<SendInput> {
  name = 'confirm_send';
  description = 'Send the drafted reply after the user confirms';
  schema = {
    to: { type: z.string(), description: 'Recipient' },
  };

  async execute(input: SendInput) {
    const answer = await this.elicit(`Send the reply to ${input.to}?`, {
      send: { type: 'boolean', title: 'Send it' },
    });
    if (answer.action === 'accept' && answer.content?.send === true) return `Sent to ${input.to}.`;
    return `Not sent (${answer.action}).`;
  }
}

export default ConfirmSendTool;
