import { EventTracked, type EventEnvelope, type EventTrackedV1 } from '@herald/contracts';
import { dayCounts, nameCounts } from './event-counts.js';

const tracked = (projectId: string, name: string, occurredAt: string) =>
  EventTracked.create({
    projectId,
    source: 'test',
    occurredAt: new Date(occurredAt),
    payload: { eventRecordId: `evt_${name}`, contactId: 'cnt_1', email: 'a@example.com', name, data: {} },
  }) as EventEnvelope<EventTrackedV1>;

describe('tracked event counts: what a run adds per name and per UTC day', () => {
  const run = [
    tracked('prj_b', 'signup', '2026-06-01T10:00:00.000Z'),
    tracked('prj_a', 'purchase', '2026-06-01T23:59:59.000Z'),
    tracked('prj_a', 'purchase', '2026-06-02T00:00:01.000Z'),
    tracked('prj_a', 'purchase', '2026-06-01T12:00:00.000Z'),
    tracked('prj_a', 'login', '2026-06-01T08:00:00.000Z'),
  ];

  it('per name: one row per (project, name), in key order, counting each event, with the latest time among them', () => {
    expect(nameCounts(run)).toEqual([
      { projectId: 'prj_a', name: 'login', count: 1, lastSeenAt: '2026-06-01T08:00:00.000Z' },
      { projectId: 'prj_a', name: 'purchase', count: 3, lastSeenAt: '2026-06-02T00:00:01.000Z' },
      { projectId: 'prj_b', name: 'signup', count: 1, lastSeenAt: '2026-06-01T10:00:00.000Z' },
    ]);
  });

  it('per day: one row per (project, UTC day, name), in key order: an event a second past midnight UTC is the next day’s', () => {
    expect(dayCounts(run)).toEqual([
      { projectId: 'prj_a', day: '2026-06-01', name: 'login', count: 1 },
      { projectId: 'prj_a', day: '2026-06-01', name: 'purchase', count: 2 },
      { projectId: 'prj_a', day: '2026-06-02', name: 'purchase', count: 1 },
      { projectId: 'prj_b', day: '2026-06-01', name: 'signup', count: 1 },
    ]);
  });
});
