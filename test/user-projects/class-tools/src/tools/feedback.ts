import { z } from 'zod';
import { ToolModule } from './base.js';

export class FeedbackTool extends ToolModule {
  private readonly received: { rating: number; comment: string }[] = [];

  register(): void {
    this.server.registerTool(
      'collect_feedback',
      { description: 'Ask the user to rate a result', inputSchema: { subject: z.string() } },
      async ({ subject }) => {
        const result = await this.server.server.elicitInput({
          message: `How would you rate ${subject}?`,
          requestedSchema: {
            type: 'object',
            properties: {
              rating: { type: 'integer', minimum: 1, maximum: 5, title: 'Rating' },
              comment: { type: 'string', maxLength: 200, title: 'Comment' },
            },
            required: ['rating'],
          },
        });
        switch (result.action) {
          case 'accept': {
            const rating = Number(result.content?.rating);
            this.received.push({ rating, comment: String(result.content?.comment ?? '') });
            const average = this.received.reduce((sum, r) => sum + r.rating, 0) / this.received.length;
            return this.text(`Thanks: ${rating}/5 for ${subject} (average ${average.toFixed(1)}).`);
          }
          case 'decline':
            return this.text('No rating given.');
          default:
            return this.text('Feedback cancelled.');
        }
      },
    );
  }
}
