import { ActivityEvents } from './activity-events.spec-support.js';
import { campaignReferenceRounds, campaignStateRounds, rounds, workflowStateRounds } from './entity-states.js';

const t0 = Date.UTC(2026, 5, 1, 10, 0, 0);
const at = (seconds: number) => new Date(t0 + seconds * 1000);
const iso = (seconds: number) => at(seconds).toISOString();
const ev = new ActivityEvents('prj_a');
const other = new ActivityEvents('prj_b');

describe('entity states: the campaign and execution states a run of events writes, a round a statement', () => {
  it('rounds: each key at most once a round, the i-th item of each key in round i, in the order given', () => {
    const items = ['a1', 'b1', 'a2', 'c1', 'a3', 'b2'];
    expect(rounds(items, (s) => s[0]!)).toEqual([['a1', 'b1', 'c1'], ['a2', 'b2'], ['a3']]);
    expect(rounds([], (s: string) => s)).toEqual([]);
  });

  it('campaign states: campaign.* events only, in (project, campaign) order, a campaign changed twice in two rounds in its order', () => {
    const due = at(3600);
    const result = campaignStateRounds([
      ev.campaign('scheduled', at(0), 'cmp_b', { scheduledAt: due, estimatedRecipients: 7 }),
      ev.workflow('step', at(1), 'exe_1'),
      ev.campaign('sending', at(2), 'cmp_a', { recipients: 2 }),
      ev.campaign('sent', at(3), 'cmp_b', { recipients: 5 }),
      other.campaign('cancelled', at(4), 'cmp_a'),
      ev.references(at(5), 'cmp_c', 'C'),
    ]);
    const base = { name: expect.any(String), subject: 'News' };
    expect(result).toEqual([
      [
        {
          ...base,
          projectId: 'prj_a',
          campaignId: 'cmp_a',
          state: 'sending',
          at: iso(2),
          scheduledAt: null,
          estimatedRecipients: null,
          recipients: 2,
        },
        {
          ...base,
          projectId: 'prj_a',
          campaignId: 'cmp_b',
          state: 'scheduled',
          at: iso(0),
          scheduledAt: due.toISOString(),
          estimatedRecipients: 7,
          recipients: null,
        },
        {
          ...base,
          projectId: 'prj_b',
          campaignId: 'cmp_a',
          state: 'cancelled',
          at: iso(4),
          scheduledAt: null,
          estimatedRecipients: null,
          recipients: null,
        },
      ],
      [
        {
          ...base,
          projectId: 'prj_a',
          campaignId: 'cmp_b',
          state: 'sent',
          at: iso(3),
          scheduledAt: null,
          estimatedRecipients: null,
          recipients: 5,
        },
      ],
    ]);
    expect(result[0]![0]!.name).toBe('Campaign cmp_a');
  });

  it('campaign references: campaigns’ only (not segments’ or workflows’), at the event’s time, deleted at that time when it says so', () => {
    const result = campaignReferenceRounds([
      ev.references(at(1), 'cmp_b', 'B'),
      ev.references(at(2), 'seg_1', 'Segment', 1, 'segment'),
      ev.references(at(3), 'cmp_a', 'A'),
      ev.references(at(4), 'wf_1', 'Workflow', 1, 'workflow'),
      ev.references(at(5), 'cmp_b', 'B', 2, 'campaign', true),
      ev.campaign('sent', at(6), 'cmp_a'),
    ]);
    expect(result).toEqual([
      [
        { projectId: 'prj_a', campaignId: 'cmp_a', name: 'A', at: iso(3), deletedAt: null },
        { projectId: 'prj_a', campaignId: 'cmp_b', name: 'B', at: iso(1), deletedAt: null },
      ],
      [{ projectId: 'prj_a', campaignId: 'cmp_b', name: 'B', at: iso(5), deletedAt: iso(5) }],
    ]);
  });

  it('workflow states: workflow.* events only, in their order; workflow.waiting is WAITING until its due time, any other event has no due time', () => {
    const due = at(86_400);
    const result = workflowStateRounds([
      ev.workflow('waiting', at(1), 'exe_2', due),
      ev.campaign('sent', at(2), 'cmp_a'),
      ev.workflow('step', at(3), 'exe_1', due),
      ev.workflow('finished', at(4), 'exe_2'),
    ]);
    const common = {
      workflowId: 'wf_1',
      workflowName: 'Welcome',
      stepId: 'step_delay',
      stepType: 'DELAY',
      stepName: 'Wait a day',
    };
    expect(result).toEqual([
      [
        {
          ...common,
          executionId: 'exe_2',
          projectId: 'prj_a',
          contactId: 'cnt_exe_2',
          email: 'exe_2@example.com',
          status: 'WAITING',
          dueAt: due.toISOString(),
          at: iso(1),
        },
        {
          ...common,
          executionId: 'exe_1',
          projectId: 'prj_a',
          contactId: 'cnt_exe_1',
          email: 'exe_1@example.com',
          status: 'RUNNING',
          dueAt: null,
          at: iso(3),
        },
      ],
      [
        {
          ...common,
          executionId: 'exe_2',
          projectId: 'prj_a',
          contactId: 'cnt_exe_2',
          email: 'exe_2@example.com',
          status: 'COMPLETED',
          dueAt: null,
          at: iso(4),
        },
      ],
    ]);
  });

  it('a run without such events writes no round', () => {
    const events = [ev.tracked(at(1), 'cnt_1', 'x')];
    expect([campaignStateRounds(events), campaignReferenceRounds(events), workflowStateRounds(events)]).toEqual([
      [],
      [],
      [],
    ]);
  });
});
