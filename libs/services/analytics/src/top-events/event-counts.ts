import type { EventEnvelope, EventTrackedV1 } from '@herald/contracts';

/** A run's tracked events of one name in a project: how many, and the latest time among them. */
export interface NameCount {
  projectId: string;
  name: string;
  count: number;
  lastSeenAt: string;
}

/** A run's tracked events of one name in a project on one UTC day (`YYYY-MM-DD`). */
export interface DayCount {
  projectId: string;
  day: string;
  name: string;
  count: number;
}

/** The run's events summed per (project, name), in key order (so that concurrent runs lock the counters alike). */
export function nameCounts(events: EventEnvelope<EventTrackedV1>[]): NameCount[] {
  const counts = new Map<string, NameCount>();
  for (const e of events) {
    const key = `${e.projectId}\u0000${e.payload.name}`;
    const c = counts.get(key);
    if (!c) counts.set(key, { projectId: e.projectId, name: e.payload.name, count: 1, lastSeenAt: e.occurredAt });
    else {
      c.count++;
      if (Date.parse(e.occurredAt) > Date.parse(c.lastSeenAt)) c.lastSeenAt = e.occurredAt;
    }
  }
  return [...counts.keys()].sort().map((k) => counts.get(k)!);
}

/** The run's events summed per (project, UTC day of `occurredAt`, name), in key order. */
export function dayCounts(events: EventEnvelope<EventTrackedV1>[]): DayCount[] {
  const daily = new Map<string, DayCount>();
  for (const e of events) {
    const day = new Date(e.occurredAt).toISOString().slice(0, 10);
    const key = `${e.projectId}\u0000${day}\u0000${e.payload.name}`;
    const d = daily.get(key);
    if (d) d.count++;
    else daily.set(key, { projectId: e.projectId, day, name: e.payload.name, count: 1 });
  }
  return [...daily.keys()].sort().map((k) => daily.get(k)!);
}
