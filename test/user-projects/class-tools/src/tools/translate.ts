import { z } from 'zod';
import { ToolModule } from './base.js';

export class TranslateTool extends ToolModule {
  register(): void {
    this.server.registerTool(
      'translate',
      {
        title: 'Translate',
        description: 'Translate text with the client model',
        inputSchema: { text: z.string(), to: z.enum(['fr', 'de', 'es']).default('fr') },
      },
      async ({ text, to }) => {
        const started = text.trim();
        const reply = await this.server.server.createMessage({
          messages: [{ role: 'user', content: { type: 'text', text: `Translate to ${to}: ${started}` } }],
          maxTokens: 500,
          temperature: 0,
        });
        if (reply.content.type !== 'text') return this.text('The model answered without text.');
        return this.text(`[${to}] ${reply.content.text}`);
      },
    );
  }
}
