// Shared input schemas: zod only, no SDK import.
import { z } from 'zod';

export const Priority = z.enum(['low', 'normal', 'high']);
export const DEFAULT_PRIORITY = Priority.Enum.normal;

export const Tags = z.record(z.string());

export const Note = z.object({
  title: z.string({ required_error: 'a note needs a title' }).min(1),
  body: z.string().default(''),
  priority: Priority.default(DEFAULT_PRIORITY),
  tags: Tags.optional(),
});
export type Note = z.infer<typeof Note>;

export function explain(error: z.ZodError): string {
  return error.errors.map(issue => `${issue.path.join('.') || 'note'}: ${issue.message}`).join('; ');
}
