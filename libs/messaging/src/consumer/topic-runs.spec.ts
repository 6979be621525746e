import type { EventEnvelope } from '@herald/contracts';
import { topicRuns, type TopicHandler } from './event-processor.js';

const event = (type: string, n: number) => ({ eventId: `${type}-${n}`, type }) as unknown as EventEnvelope;
const batch = { batch: async () => undefined };
const gathering = { batch: async () => undefined, gather: true };
const perEvent: TopicHandler = async () => undefined;

describe('topicRuns', () => {
  it('splits a batch into runs of consecutive events of one topic, in order', () => {
    const handlers = () => [batch];
    const runs = topicRuns([event('a', 1), event('a', 2), event('b', 3), event('a', 4)], handlers);
    expect(runs.map((r) => [r.topic, r.events.map((e) => e.eventId)])).toEqual([
      ['a', ['a-1', 'a-2']],
      ['b', ['b-3']],
      ['a', ['a-4']],
    ]);
  });

  it("a topic whose handlers all gather has one run at its first event's place, its events in order; the others keep their stretches", () => {
    const handlers = (topic: string) =>
      topic === 'tracked' ? [gathering] : topic === 'mixed' ? [gathering, perEvent] : [perEvent];
    const runs = topicRuns(
      [
        event('created', 1),
        event('tracked', 2),
        event('created', 3),
        event('tracked', 4),
        event('mixed', 5),
        event('created', 6),
        event('mixed', 7),
        event('tracked', 8),
      ],
      handlers,
    );
    expect(runs.map((r) => [r.topic, r.events.map((e) => e.eventId)])).toEqual([
      ['created', ['created-1']],
      ['tracked', ['tracked-2', 'tracked-4', 'tracked-8']],
      ['created', ['created-3']],
      ['mixed', ['mixed-5']],
      ['created', ['created-6']],
      ['mixed', ['mixed-7']],
    ]);
  });
});
