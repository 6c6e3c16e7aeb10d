import { z } from 'zod';
import { BaseTool } from './BaseTool.js';

const schema = { trip: z.string() };

export class SummaryTool extends BaseTool<{ trip: string }> {
  readonly name = 'summarize_trip';
  readonly description = 'Summarize a trip with the client model';
  readonly schema = schema;

  async execute({ trip }: { trip: string }) {
    const result = await this.server.server.createMessage({
      messages: [{ role: 'user', content: { type: 'text', text: `Summarize this trip: ${trip}` } }],
      maxTokens: 60,
    });
    return this.ok(result.content.type === 'text' ? result.content.text : '(no summary)');
  }
}
