/** What the tools have recorded this session (one process per session). */
export interface Announcement {
  audience: string;
  message: string;
}

export interface Review {
  list: string;
  accepted: number;
  of: number;
}

export const announcements: Announcement[] = [];
export const reviews: Review[] = [];
export const assignments = new Map<string, string>();
export const published: string[] = [];

export function describeStore(): string {
  const lines = [
    `announcements: ${announcements.map(a => `${a.audience} <- ${a.message}`).join('; ') || 'none'}`,
    `reviews: ${reviews.map(r => `${r.list} ${r.accepted}/${r.of}`).join('; ') || 'none'}`,
    `assignments: ${[...assignments].map(([task, project]) => `${task} -> ${project}`).join('; ') || 'none'}`,
    `published: ${published.join('; ') || 'none'}`,
  ];
  return lines.join('\n');
}
