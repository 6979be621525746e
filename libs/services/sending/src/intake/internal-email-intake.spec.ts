import type { IntakeItem } from '@herald/internal-contracts';
import type { DataSource, EntityManager } from 'typeorm';
import type { SendAdmission } from '../admission/send-admission.js';
import type { Email } from '../emails/email.entity.js';
import type { EmailRenderer } from '../render/email-renderer.js';
import type { ContactsClient } from '../send/contacts-client.js';
import { EMAILS_CHANNEL } from '../send/send-email.use-case.js';
import type { SenderDomains } from '../senders/sender-domains.js';
import type { TemplatesService } from '../templates/templates.service.js';
import type { IntakeStore, StoredEmail } from './intake.store.js';
import { InternalEmailIntake } from './internal-email-intake.js';

interface World {
  /** Emails stored before the call, by key. */
  before?: Record<string, StoredEmail>;
  /** Keys another call inserts first (the insert leaves them out), and the rows it stored under them. */
  racedBy?: Record<string, StoredEmail>;
  suppressed?: string[];
}

/** The intake over a store answering from `world`; the store calls in order, and what admission was asked. */
function intakeWith(world: World) {
  const calls: unknown[][] = [];
  const admitted: [string, number][] = [];
  const outside = { outside: true } as unknown as EntityManager;
  const tx = { tx: true } as unknown as EntityManager;
  const where = (m: EntityManager) => (m === tx ? 'tx' : m === outside ? 'outside' : '?');
  const db = {
    manager: outside,
    transaction: async (work: (m: EntityManager) => unknown) => work(tx),
    getRepository: () => ({ create: (e: Partial<Email>) => e }),
  } as unknown as DataSource;
  const store = {
    stored: async (m: EntityManager, _p: string, keys: string[]) => {
      calls.push(['stored', where(m), keys]);
      const known = where(m) === 'tx' ? (world.racedBy ?? {}) : (world.before ?? {});
      return new Map(keys.filter((k) => known[k]).map((k) => [k, known[k]!]));
    },
    suppressed: async (m: EntityManager, _p: string, emails: string[]) => (
      calls.push(['suppressed', where(m), emails]),
      new Set((world.suppressed ?? []).filter((e) => emails.includes(e)))
    ),
    insertNew: async (m: EntityManager, rows: Email[]) => {
      calls.push(['insert', where(m), rows.map((r) => r.sourceKey)]);
      return new Set(rows.map((r) => r.sourceKey!).filter((k) => !world.racedBy?.[k]));
    },
    notify: async (m: EntityManager, channel: string) => void calls.push(['notify', where(m), channel]),
  } as unknown as IntakeStore;
  const senders = { assertVerified: async () => undefined } as unknown as SenderDomains;
  const contacts = { findByEmails: async () => [] } as unknown as ContactsClient;
  const renderer = {
    render: async (src: { subject: string }) => ({ subject: src.subject, html: '<p>x</p>', text: 'x', headers: {} }),
  } as unknown as EmailRenderer;
  const admission = {
    admit: async (_p: string, origin: string, count: number) => void admitted.push([origin, count]),
  } as unknown as SendAdmission;
  const intake = new InternalEmailIntake(db, {} as TemplatesService, senders, contacts, renderer, admission, store);
  return { intake, calls, admitted };
}

const item = (key: string, p: Partial<IntakeItem> = {}): IntakeItem => ({
  key,
  to: `${key}@example.com`,
  from: 'news@brand.test',
  subject: 'Hi',
  body: '<p>Hi</p>',
  category: 'transactional',
  origin: 'workflow',
  priority: 'normal',
  ...p,
});

describe('InternalEmailIntake: keys are unique for good, rows written in key order, the worker woken for queued mail only', () => {
  it('writes the new keys in one transaction in key order, the first item of a repeated key only, and wakes the worker', async () => {
    const { intake, calls } = intakeWith({});
    const answer = await intake.execute('prj_1', { items: [item('k_b'), item('k_a'), item('k_b')] });
    expect(answer.results.map((r) => [r.key, r.status])).toEqual([
      ['k_b', 'queued'],
      ['k_a', 'queued'],
      ['k_b', 'duplicate'],
    ]);
    expect(answer.results[2]).toMatchObject({ emailId: answer.results[0]!.emailId, firstStatus: 'queued' });
    expect(calls).toEqual([
      ['stored', 'outside', ['k_b', 'k_a', 'k_b']],
      ['suppressed', 'outside', ['k_b@example.com', 'k_a@example.com']],
      ['insert', 'tx', ['k_a', 'k_b']],
      ['stored', 'tx', []],
      ['notify', 'tx', EMAILS_CHANNEL],
    ]);
  });

  it('a key stored before is a duplicate of that email (with its first answer), neither admitted nor written again', async () => {
    const { intake, calls, admitted } = intakeWith({
      before: { k_old: { id: 'eml_old', status: 'suppressed', error: 'The address is on the suppression list' } },
    });
    const answer = await intake.execute('prj_1', { items: [item('k_old'), item('k_new', { origin: 'campaign' })] });
    expect(answer.results).toEqual([
      { key: 'k_old', status: 'duplicate', emailId: 'eml_old', firstStatus: 'skipped', reason: 'suppressed' },
      { key: 'k_new', status: 'queued', emailId: expect.any(String) },
    ]);
    expect(admitted).toEqual([
      ['campaign', 1],
      ['workflow', 0],
    ]);
    expect(calls.find((c) => c[0] === 'insert')).toEqual(['insert', 'tx', ['k_new']]);
  });

  it('a key another call wrote meanwhile is read back in the transaction and answered as a duplicate of its email', async () => {
    const { intake, calls } = intakeWith({ racedBy: { k_race: { id: 'eml_theirs', status: 'queued', error: null } } });
    const answer = await intake.execute('prj_1', { items: [item('k_race')] });
    expect(answer.results).toEqual([
      { key: 'k_race', status: 'duplicate', emailId: 'eml_theirs', firstStatus: 'queued' },
    ]);
    expect(calls.slice(-1)).toEqual([['stored', 'tx', ['k_race']]]);
  });

  it('no wake-up when nothing queued was written: every new email skipped', async () => {
    const { intake, calls } = intakeWith({ suppressed: ['k_s@example.com'] });
    const answer = await intake.execute('prj_1', {
      items: [item('k_s'), item('k_m', { category: 'marketing' }), item('k_bad', { to: 'not an address' })],
    });
    expect(answer.results.map((r) => [r.status, r.reason])).toEqual([
      ['skipped', 'suppressed'],
      ['skipped', 'unsubscribed'],
      ['skipped', 'invalid_address'],
    ]);
    expect(calls.filter((c) => c[0] === 'notify')).toEqual([]);
  });
});
