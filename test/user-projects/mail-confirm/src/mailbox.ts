/** A stand-in for the mail provider's API: sends need a confirmation token first. */
export interface SendPreview {
  to: string[];
  subject: string;
  text: string;
}

export type SendResult =
  | { status: 'confirmation_required'; preview: SendPreview; confirmationToken: string }
  | { status: 'sent'; id: string }
  | { status: 'cancelled'; preview: SendPreview };

let next = 1;
const pending = new Map<string, SendPreview>();
export const outbox: string[] = [];
export const calls: string[] = [];

export const mail = {
  async prepare(draft: SendPreview): Promise<SendResult> {
    calls.push('prepare');
    const token = `tok-${next++}`;
    pending.set(token, draft);
    return { status: 'confirmation_required', preview: draft, confirmationToken: token };
  },
  async send(token: string): Promise<SendResult> {
    calls.push('send');
    const draft = pending.get(token);
    if (!draft) throw new Error(`unknown token ${token}`);
    pending.delete(token);
    outbox.push(`${draft.subject} -> ${draft.to.join(',')}`);
    return { status: 'sent', id: `msg-${outbox.length}` };
  },
  cancel(token: string): void {
    calls.push('cancel');
    pending.delete(token);
  },
};
