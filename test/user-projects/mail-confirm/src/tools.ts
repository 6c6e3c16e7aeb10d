import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ElicitRequestFormParams } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { calls, mail, outbox, type SendResult } from './mailbox.js';

type ToolResult = { content: { type: 'text'; text: string }[]; isError?: boolean };

/** Every tool answers JSON text, and an error as an error result. */
function withJson<A>(fn: (input: A, extra: { signal: AbortSignal }) => Promise<unknown>) {
  return async (input: A, extra: { signal: AbortSignal }): Promise<ToolResult> => {
    try {
      return { content: [{ type: 'text', text: JSON.stringify(await fn(input, extra)) }] };
    } catch (error) {
      return { content: [{ type: 'text', text: `error: ${(error as Error).message}` }], isError: true };
    }
  };
}

const serialize = (r: SendResult) => (r.status === 'sent' ? { status: r.status, id: r.id } : { status: r.status, subject: r.preview.subject });

export function registerMailTools(server: McpServer): void {
  server.registerTool(
    'mail_send',
    {
      description: 'Send an email, after the user confirms it',
      inputSchema: { to: z.array(z.string()), subject: z.string(), text: z.string() },
    },
    withJson(async (input: { to: string[]; subject: string; text: string }, extra) => {
      const result = await mail.prepare({ to: input.to, subject: input.subject, text: input.text });
      if (result.status !== 'confirmation_required' || !server.server.getClientCapabilities()?.elicitation) {
        return serialize(result);
      }
      const request: ElicitRequestFormParams = {
        mode: 'form',
        message: [`Send this email to ${result.preview.to.join(', ')}?`, `Subject: ${result.preview.subject}`].join('\n'),
        requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean', title: 'Send' } }, required: ['confirm'] },
      };
      let confirmation;
      try {
        confirmation = extra.signal
          ? await server.server.elicitInput(request, { signal: extra.signal })
          : await server.server.elicitInput(request);
      } catch (error) {
        mail.cancel(result.confirmationToken);
        throw error;
      }
      if (confirmation.action !== 'accept' || confirmation.content?.confirm !== true) {
        mail.cancel(result.confirmationToken);
        return serialize({ status: 'cancelled', preview: result.preview });
      }
      return serialize(await mail.send(result.confirmationToken));
    }),
  );

  server.registerTool('mail_log', { description: 'What the mailbox saw' }, async () => ({
    content: [{ type: 'text', text: `outbox: ${outbox.join('; ') || 'empty'} | calls: ${calls.join(',')}` }],
  }));
}
