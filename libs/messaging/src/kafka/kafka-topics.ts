import { deadLetterTopic, Topics } from '@herald/contracts';
import type { Admin, ConfigResourceTypes } from 'kafkajs';

/** kafkajs' ConfigResourceTypes.TOPIC: a value import of it fails under ESM (kafkajs is CommonJS). */
const TOPIC_RESOURCE = 2 as ConfigResourceTypes;

/** A topic as the `topics` command creates it. */
export interface TopicSpec {
  topic: string;
  partitions: number;
  replicationFactor: number;
  retentionMs: number;
}

export interface TopicSettings {
  /** Partitions of a topic unless overridden (dead-letter topics: 1 unless overridden). */
  partitions: number;
  overrides: ReadonlyMap<string, number>;
  replicationFactor: number;
  retentionMs: number;
}

/** Every topic Herald uses: each topic of the contracts (docs/asyncapi.yaml's channels) and its `.dlq`. */
export function heraldTopics(): string[] {
  const topics = Object.values(Topics) as string[];
  return [...topics, ...topics.map(deadLetterTopic)];
}

/** The topics Herald needs, with their partitions, replication and retention. */
export function desiredTopics(settings: TopicSettings, topics: readonly string[] = heraldTopics()): TopicSpec[] {
  const known = new Set(topics);
  const unknown = [...settings.overrides.keys()].filter((t) => !known.has(t));
  if (unknown.length > 0)
    throw new Error(`KAFKA_TOPIC_PARTITIONS_OVERRIDES names topics Herald does not use: ${unknown.join(', ')}`);
  return topics.map((topic) => ({
    topic,
    partitions: settings.overrides.get(topic) ?? (topic.endsWith('.dlq') ? 1 : settings.partitions),
    replicationFactor: settings.replicationFactor,
    retentionMs: settings.retentionMs,
  }));
}

export interface TopicProblems {
  missing: TopicSpec[];
  /** Topics with fewer partitions than configured (more is accepted: partitions are never removed). */
  tooFewPartitions: { topic: string; expected: number; actual: number }[];
}

/** What the cluster lacks: `existing` maps each topic present to its partition count. */
export function compareTopics(desired: readonly TopicSpec[], existing: ReadonlyMap<string, number>): TopicProblems {
  const problems: TopicProblems = { missing: [], tooFewPartitions: [] };
  for (const spec of desired) {
    const actual = existing.get(spec.topic);
    if (actual === undefined) problems.missing.push(spec);
    else if (actual < spec.partitions)
      problems.tooFewPartitions.push({ topic: spec.topic, expected: spec.partitions, actual });
  }
  return problems;
}

/** One line per problem, each naming its topic. */
export function describeProblems(problems: TopicProblems): string[] {
  return [
    ...problems.missing.map((s) => `topic ${s.topic} is missing (wants ${s.partitions} partitions)`),
    ...problems.tooFewPartitions.map(
      (p) => `topic ${p.topic} has ${p.actual} partitions, fewer than the ${p.expected} configured`,
    ),
  ];
}

/** Partition counts of the `topics` that exist (a Metadata request for all topics: nothing is auto-created). */
export async function existingTopics(admin: Admin, topics: readonly string[]): Promise<Map<string, number>> {
  const present = new Set(await admin.listTopics());
  const wanted = topics.filter((t) => present.has(t));
  const counts = new Map<string, number>();
  if (wanted.length === 0) return counts;
  const { topics: metadata } = await admin.fetchTopicMetadata({ topics: wanted });
  for (const t of metadata) counts.set(t.name, t.partitions.length);
  return counts;
}

export interface TopicsRun {
  created: string[];
  problems: string[];
  /** Topics whose retention.ms differs from the configured one, or why retention was not checked. */
  notes: string[];
}

/**
 * `check`: reports each missing topic and each with too few partitions. Otherwise creates the missing
 * ones (partitions, replication factor, retention.ms) and reports what is still wrong: an existing
 * topic is never altered (adding partitions moves keys to other partitions, breaking their order).
 */
export async function ensureTopics(admin: Admin, desired: readonly TopicSpec[], check: boolean): Promise<TopicsRun> {
  const names = desired.map((s) => s.topic);
  let problems = compareTopics(desired, await existingTopics(admin, names));
  const created: string[] = [];
  if (!check && problems.missing.length > 0) {
    await admin.createTopics({
      waitForLeaders: true,
      topics: problems.missing.map((s) => ({
        topic: s.topic,
        numPartitions: s.partitions,
        replicationFactor: s.replicationFactor,
        configEntries: [{ name: 'retention.ms', value: String(s.retentionMs) }],
      })),
    });
    created.push(...problems.missing.map((s) => s.topic));
    problems = compareTopics(desired, await existingTopics(admin, names));
  }
  const missing = new Set(problems.missing.map((s) => s.topic));
  return {
    created,
    problems: describeProblems(problems),
    notes: await retentionNotes(
      admin,
      desired.filter((s) => !missing.has(s.topic)),
    ),
  };
}

/** Topics whose retention.ms is not the configured one (a broker without DescribeConfigs: one note saying so). */
async function retentionNotes(admin: Admin, present: readonly TopicSpec[]): Promise<string[]> {
  if (present.length === 0) return [];
  try {
    const { resources } = await admin.describeConfigs({
      includeSynonyms: false,
      resources: present.map((s) => ({
        type: TOPIC_RESOURCE,
        name: s.topic,
        configNames: ['retention.ms'],
      })),
    });
    const wanted = new Map(present.map((s) => [s.topic, String(s.retentionMs)]));
    return resources.flatMap((r) => {
      const value = r.configEntries.find((e) => e.configName === 'retention.ms')?.configValue;
      return value !== undefined && value !== wanted.get(r.resourceName)
        ? [`topic ${r.resourceName} has retention.ms ${value}, not the ${wanted.get(r.resourceName)} configured`]
        : [];
    });
  } catch (err) {
    return [`retention.ms not checked: the cluster did not describe topic configs (${(err as Error).message})`];
  }
}
