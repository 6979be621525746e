import { Topics } from '@herald/contracts';
import { compareTopics, describeProblems, desiredTopics, heraldTopics } from './kafka-topics.js';

const settings = { partitions: 6, overrides: new Map<string, number>(), replicationFactor: 3, retentionMs: 1000 };

describe('the topics Herald needs', () => {
  it('every topic of the contracts and its dead-letter topic', () => {
    const topics = heraldTopics();
    for (const t of Object.values(Topics)) expect(topics).toEqual(expect.arrayContaining([t, `${t}.dlq`]));
    expect(topics).toHaveLength(2 * Object.values(Topics).length);
  });

  it('configured partitions, 1 for a dead-letter topic, overrides per topic', () => {
    const desired = desiredTopics({ ...settings, overrides: new Map([['event.tracked', 24]]) });
    const of = (t: string) => desired.find((s) => s.topic === t);
    expect(of('event.tracked')).toEqual({
      topic: 'event.tracked',
      partitions: 24,
      replicationFactor: 3,
      retentionMs: 1000,
    });
    expect(of('email.sent')?.partitions).toBe(6);
    expect(of('email.sent.dlq')?.partitions).toBe(1);
  });

  it('an override naming a topic Herald does not use is refused', () => {
    expect(() => desiredTopics({ ...settings, overrides: new Map([['email.snet', 3]]) })).toThrow(
      /KAFKA_TOPIC_PARTITIONS_OVERRIDES names topics Herald does not use: email.snet/,
    );
  });

  it('the check names each missing topic and each with fewer partitions than configured; more is accepted', () => {
    const desired = desiredTopics(settings, ['a', 'b', 'c', 'd']);
    const problems = compareTopics(
      desired,
      new Map([
        ['a', 6],
        ['b', 2],
        ['d', 12],
      ]),
    );
    expect(describeProblems(problems)).toEqual([
      'topic c is missing (wants 6 partitions)',
      'topic b has 2 partitions, fewer than the 6 configured',
    ]);
  });
});
