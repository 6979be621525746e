import { EMAIL_STATUSES, publicStatus, sendOutcome, storedStatuses } from './email-view.js';
import type { EmailStatus } from './email.entity.js';

describe('email statuses as the API names them', () => {
  it('shows a suppressed or unsubscribed email as skipped with its reason, every other status as stored', () => {
    expect(publicStatus('suppressed')).toEqual({ status: 'skipped', reason: 'suppressed' });
    expect(publicStatus('skipped')).toEqual({ status: 'skipped', reason: 'unsubscribed' });
    for (const s of ['queued', 'sending', 'sent', 'delivered', 'bounced', 'failed'] as const)
      expect(publicStatus(s)).toEqual({ status: s });
  });

  it('answers /v1/send with queued or skipped and the reason', () => {
    expect(sendOutcome('queued')).toEqual({ status: 'queued' });
    expect(sendOutcome('suppressed')).toEqual({ status: 'skipped', reason: 'suppressed' });
    expect(sendOutcome('skipped')).toEqual({ status: 'skipped', reason: 'unsubscribed' });
  });

  it('filters a listed status by every stored status it stands for, and by nothing else', () => {
    const stored: EmailStatus[] = [
      'queued',
      'sending',
      'sent',
      'delivered',
      'bounced',
      'failed',
      'suppressed',
      'skipped',
    ];
    for (const status of EMAIL_STATUSES)
      expect(storedStatuses(status).sort()).toEqual(stored.filter((s) => publicStatus(s).status === status).sort());
  });
});
