import { z } from 'zod';

// A range of days, as the calendar API takes it.
export const DayRange = z.object({
  from: z.coerce.date().describe('First day (ISO 8601)'),
  to: z.coerce.date().optional().describe('Last day, the first when left out'),
});
