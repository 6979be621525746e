import { ProjectContext } from './project-context.js';
import type { Segment } from './segment.entity.js';
import type { LeftSegment } from './segments.store.js';
import { change, entered, exited, m, published, setup } from './membership-engine.spec-support.js';
import { segment, where } from './segment-builders.spec-support.js';

describe('MembershipEngine', () => {
  const byEmail = segment('seg_email', where('email', 'contains', 'pro'));
  const bySignup = segment('seg_signup', where('event.signup', 'triggered'));
  const byPaid = segment('seg_paid', where('event.paid', 'triggered'));
  const listed = segment('seg_static', null, { type: 'STATIC' });

  describe('the real-time re-evaluation of changed contacts', () => {
    it('a project without a dynamic segment stops after its advisory locks: no row lock, no context, no reconciliation', async () => {
      const { engine, asked } = setup([listed], { dynamic: false });
      await engine.onContactsChanged(m, [change('c1')]);
      expect(asked).toEqual(['lock p c1']);
    });

    it('locks each changed contact once, in id order, then its rows, then loads the project', async () => {
      const { engine, asked } = setup([byEmail]);
      await engine.onContactsChanged(m, [change('c2'), change('c1'), change('c2')]);
      expect(asked).toEqual(['lock p c1,c2', 'lock rows p c1,c2', 'load p', 'reconcile seg_email']);
    });

    it('re-evaluates a project at a time, in project order', async () => {
      const { engine, asked } = setup([byEmail]);
      await engine.onContactsChanged(m, [change('c1', { projectId: 'p2' }), change('c2', { projectId: 'p1' })]);
      expect(asked.filter((a) => a.startsWith('lock p'))).toEqual(['lock p1 c2', 'lock p2 c1']);
    });

    it('scopes one contact by its id and several by their ids, never as a span', async () => {
      const { engine, reconciled } = setup([byEmail]);
      await engine.onContactChanged(m, 'p', 'c1', {});
      await engine.onContactsChanged(m, [change('c2'), change('c1')]);
      expect(reconciled.map((r) => r.scope)).toEqual([
        { contactId: 'c1' },
        { contactIds: ['c1', 'c2'], bySegment: new Map([['seg_email', ['c1', 'c2']]]) },
      ]);
    });

    it("a contact's change re-evaluates every dynamic segment reading no stored membership in one statement", async () => {
      const { engine, reconciled } = setup([byEmail, bySignup, byPaid, listed]);
      await engine.onContactsChanged(m, [change('c1')]);
      expect(reconciled.map((r) => r.segments)).toEqual([['seg_email', 'seg_signup', 'seg_paid']]);
    });

    it('a tracked event re-evaluates only the segments reading events of its name; none: no statement', async () => {
      const { engine, reconciled } = setup([byEmail, bySignup, byPaid]);
      await engine.onContactsChanged(m, [change('c1', { change: { kind: 'event', name: 'signup' } })]);
      await engine.onContactsChanged(m, [change('c1', { change: { kind: 'event', name: 'login' } })]);
      expect(reconciled.map((r) => r.segments)).toEqual([['seg_signup']]);
    });

    it("a creation re-evaluates the segments reading a built-in field or a key the contact holds, and those matching a contact holding nothing; after the rows' lock it reads what the contact holds", async () => {
      const { engine, reconciled, asked } = setup(
        [
          byEmail,
          bySignup,
          byPaid,
          segment('seg_tier', where('data.tier', 'equals', 't1')),
          segment('seg_no_tier', where('data.tier', 'notExists')),
          segment('seg_plan', where('data.plan.name', 'equals', 'pro')),
          segment('seg_unpaid', where('event.paid', 'notTriggered')),
          segment('seg_ref', where('segment.seg_static', 'isMember')),
          listed,
        ],
        { held: { c2: ['data.plan', 'event.signup'] } },
      );
      await engine.onContactsChanged(m, [change('c2', { change: { kind: 'created' } }), change('c1')]);
      expect(asked.slice(0, 4)).toEqual(['lock p c1,c2', 'lock rows p c1,c2', 'held p c2', 'load p']);
      // c1's change touched everything: every dynamic segment, each over c1, and over c2 when its creation reaches it
      expect(reconciled.map((r) => r.segments)).toEqual([
        ['seg_email', 'seg_signup', 'seg_paid', 'seg_tier', 'seg_no_tier', 'seg_plan', 'seg_unpaid', 'seg_ref'],
      ]);
      const scope = reconciled[0]!.scope as unknown as { bySegment: Map<string, string[]> };
      expect(Object.fromEntries(scope.bySegment)).toEqual({
        seg_email: ['c1', 'c2'],
        seg_signup: ['c1', 'c2'],
        seg_paid: ['c1'],
        seg_tier: ['c1'],
        seg_no_tier: ['c1', 'c2'],
        seg_plan: ['c1', 'c2'],
        seg_unpaid: ['c1', 'c2'],
        seg_ref: ['c1', 'c2'],
      });

      reconciled.length = 0;
      await engine.onContactsChanged(m, [change('c2', { change: { kind: 'created' } })]);
      expect(reconciled.map((r) => r.segments)).toEqual([
        ['seg_email', 'seg_signup', 'seg_no_tier', 'seg_plan', 'seg_unpaid', 'seg_ref'],
      ]);
    });

    it('in a round of several contacts, each segment looks only at the contacts whose change touched what it reads', async () => {
      const { engine, reconciled } = setup([byEmail, bySignup, byPaid]);
      await engine.onContactsChanged(m, [
        change('c1', { change: { kind: 'event', name: 'signup' } }),
        change('c2', { change: { kind: 'event', name: 'paid' } }),
        change('c3', { change: { kind: 'event', name: 'signup' } }),
        change('c4', { change: { kind: 'contact', keys: new Set(['email']) } }),
      ]);
      expect(reconciled.map((r) => r.segments)).toEqual([['seg_email', 'seg_signup', 'seg_paid']]);
      expect(
        Object.fromEntries((reconciled[0]!.scope as unknown as { bySegment: Map<string, string[]> }).bySegment),
      ).toEqual({
        seg_email: ['c4'],
        seg_signup: ['c1', 'c3'],
        seg_paid: ['c2'],
      });
    });

    it('a segment reading stored memberships is reconciled on its own, after the segments it reads, whatever their ids', async () => {
      const { engine, reconciled } = setup([
        segment('seg_a', where('segment.seg_c', 'isMember')),
        segment('seg_b', where('email', 'contains', 'x')),
        segment('seg_c', where('segment.seg_b', 'isMember')),
      ]);
      await engine.onContactsChanged(m, [change('c1')]);
      expect(reconciled.map((r) => r.segments)).toEqual([['seg_b'], ['seg_c'], ['seg_a']]);
    });

    it("entries and exits move each segment's count by their difference; only tracking segments publish them, each naming its contact's change as the cause", async () => {
      const tracked = segment('seg_tracked', where('email', 'contains', 'a'), { trackMembership: true });
      const silent = segment('seg_silent', where('email', 'contains', 'b'));
      const {
        engine,
        counts,
        published: events,
      } = setup([silent, tracked], {
        rows: () => [entered('seg_tracked', 'c1'), exited('seg_tracked', 'c2'), entered('seg_silent', 'c1')],
      });
      await engine.onContactsChanged(m, [change('c1'), change('c2')]);
      expect(counts).toEqual([
        [
          ['seg_tracked', 0],
          ['seg_silent', 1],
        ],
      ]);
      expect(published(events)).toEqual([
        ['segment.entered', 'seg_tracked', 'c1', 'c1@example.com', 'change', 'evt_c1'],
        ['segment.exited', 'seg_tracked', 'c2', 'c2@example.com', 'change', 'evt_c2'],
      ]);
    });

    it('an exit of a contact no longer in the read model is counted but not published (it has no address)', async () => {
      const tracked = segment('seg_tracked', where('email', 'contains', 'a'), { trackMembership: true });
      const {
        engine,
        counts,
        published: events,
      } = setup([tracked], { rows: () => [exited('seg_tracked', 'c1', null)] });
      await engine.onContactsChanged(m, [change('c1')]);
      expect([counts, events]).toEqual([[[['seg_tracked', -1]]], []]);
    });

    it('nothing entered or left: no count and no event is written', async () => {
      const tracked = segment('seg_tracked', where('email', 'contains', 'a'), { trackMembership: true });
      const { engine, counts, published: events } = setup([tracked], { rows: () => [] });
      await engine.onContactsChanged(m, [change('c1')]);
      expect([counts, events]).toEqual([[], []]);
    });
  });

  describe('a reconciliation of a compute', () => {
    const tracked = segment('seg_tracked', where('email', 'contains', 'a'), { trackMembership: true });
    const ctxOf = (segments: Segment[]) => new ProjectContext('p', new Map(segments.map((s) => [s.id, s])), {});
    const now = new Date('2026-01-01T00:00:00Z');

    it('a silent one (a baseline) writes the counts and publishes nothing', async () => {
      const { engine, counts, published: events } = setup([tracked], { rows: () => [entered('seg_tracked', 'c1')] });
      const r = await engine.reconcile(
        m,
        ctxOf([tracked]),
        tracked,
        { contactIds: ['c1'], span: true },
        {
          fire: false,
          reason: 'compute',
          now,
        },
      );
      expect([r, counts, events]).toEqual([{ added: 1, removed: 0 }, [[['seg_tracked', 1]]], []]);
    });

    it('a published one carries its reason, time and trace, and answers what entered and left', async () => {
      const {
        engine,
        reconciled,
        published: events,
      } = setup([tracked], {
        rows: () => [entered('seg_tracked', 'c1'), exited('seg_tracked', 'c2')],
      });
      const r = await engine.reconcile(
        m,
        ctxOf([tracked]),
        tracked,
        { contactIds: ['c1', 'c2'], span: true },
        {
          fire: true,
          reason: 'sweep',
          now,
          trace: { correlationId: 'req_1' },
        },
      );
      expect(r).toEqual({ added: 1, removed: 1 });
      expect(reconciled).toEqual([{ segments: ['seg_tracked'], scope: { contactIds: ['c1', 'c2'], span: true }, now }]);
      const at = now.toISOString();
      expect(
        events.map((e) => {
          const payload = e.payload as { at: string; reason: string; segmentName: string };
          return [e.type, e.correlationId, e.occurredAt, payload.at, payload.reason, payload.segmentName];
        }),
      ).toEqual([
        ['segment.entered', 'req_1', at, at, 'sweep', 'Segment seg_tracked'],
        ['segment.exited', 'req_1', at, at, 'sweep', 'Segment seg_tracked'],
      ]);
    });

    it("a batch of a compute's difference that publishes writes its events in the reconciliation's statement, from the contracts' envelopes of each tracking segment (its reason, time and trace), none through the process", async () => {
      const silent = segment('seg_silent', where('email', 'contains', 'b'));
      const {
        engine,
        asked,
        counts,
        published: events,
        templates,
      } = setup([tracked, silent], {
        rows: () => [entered('seg_tracked', 'c1'), exited('seg_tracked', 'c2'), entered('seg_silent', 'c1')],
      });
      const difference = { difference: { from: 0, to: 10_000, first: 'c1', last: 'c2' } };
      const r = await engine.reconcileMany(m, ctxOf([tracked, silent]), [tracked, silent], difference, {
        fire: true,
        reason: 'compute',
        now,
        trace: { correlationId: 'req_1' },
      });
      expect(r).toEqual({ added: 2, removed: 1 });
      expect([asked, counts, events]).toEqual([
        ['reconcile publishing seg_tracked,seg_silent'],
        [
          [
            ['seg_tracked', 0],
            ['seg_silent', 1],
          ],
        ],
        [],
      ]);
      const at = now.toISOString();
      expect(
        templates.flatMap((t) =>
          [t.entered, t.exited].map((e) => {
            const payload = e.payload as { segmentId: string; at: string; reason: string };
            return [
              t.segmentId,
              e.type,
              e.source,
              e.correlationId,
              e.occurredAt,
              payload.segmentId,
              payload.at,
              payload.reason,
            ];
          }),
        ),
      ).toEqual([
        ['seg_tracked', 'segment.entered', 'segments', 'req_1', at, 'seg_tracked', at, 'compute'],
        ['seg_tracked', 'segment.exited', 'segments', 'req_1', at, 'seg_tracked', at, 'compute'],
      ]);
    });

    it('a static segment (no filter) is not reconciled', async () => {
      const { engine, asked } = setup([listed]);
      expect(
        await engine.reconcile(m, ctxOf([listed]), listed, { contactId: 'c1' }, { fire: true, reason: 'compute', now }),
      ).toEqual({ added: 0, removed: 0 });
      expect(asked).toEqual([]);
    });
  });

  describe('a deleted contact', () => {
    const left = (id: string, type: string, track: boolean): LeftSegment => ({
      id,
      name: `Segment ${id}`,
      type,
      track_membership: track,
    });

    it('leaves every segment it was in: each count goes down by one, the exit published for tracking dynamic segments only', async () => {
      const {
        engine,
        counts,
        published: events,
      } = setup([], {
        left: [left('seg_a', 'DYNAMIC', true), left('seg_b', 'DYNAMIC', false), left('seg_c', 'STATIC', false)],
      });
      await engine.onContactDeleted(m, 'p', { contactId: 'c1', email: 'c1@example.com' }, { causationId: 'evt_del' });
      expect(counts).toEqual([
        [
          ['seg_a', -1],
          ['seg_b', -1],
          ['seg_c', -1],
        ],
      ]);
      expect(published(events)).toEqual([['segment.exited', 'seg_a', 'c1', 'c1@example.com', 'change', 'evt_del']]);
    });

    it('in no segment: nothing more is written', async () => {
      const { engine, asked, counts, published: events } = setup([]);
      await engine.onContactDeleted(m, 'p', { contactId: 'c1', email: 'c1@example.com' }, {});
      expect([asked, counts, events]).toEqual([['leave p c1'], [], []]);
    });
  });
});
