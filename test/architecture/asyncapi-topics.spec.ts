import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { contractFor, Topics } from '@herald/contracts';
import { heraldTopics } from '@herald/messaging';
import { getMetadataStorage } from 'class-validator';
import { parse } from 'yaml';

/**
 * docs/asyncapi.yaml is the public description of Herald's topics: its channels are exactly the
 * code's topics (both directions), each says its message key and recommended partitions, and the
 * `topics` command creates each of them (plus its dead-letter topic).
 */
const root = fileURLToPath(new URL('../../', import.meta.url));
interface Channel {
  address: string;
  'x-message-key'?: string;
  bindings?: { kafka?: { partitions?: number } };
}
const doc = parse(readFileSync(join(root, 'docs', 'asyncapi.yaml'), 'utf8')) as { channels: Record<string, Channel> };
const channels = Object.values(doc.channels);
const codeTopics = Object.values(Topics) as string[];

describe('docs/asyncapi.yaml and the code agree on the topics', () => {
  it('every topic of the code is a channel of the document', () => {
    const documented = new Set(channels.map((c) => c.address));
    expect(codeTopics.filter((t) => !documented.has(t))).toEqual([]);
  });

  it('every channel of the document is a topic of the code', () => {
    expect(channels.map((c) => c.address).filter((a) => !codeTopics.includes(a))).toEqual([]);
  });

  it('the topics command creates every channel and its dead-letter topic', () => {
    expect(new Set(heraldTopics())).toEqual(new Set(channels.flatMap((c) => [c.address, `${c.address}.dlq`])));
  });

  it('each channel names its message key, a field of the envelope or of its payload, and its partitions', () => {
    const problems: string[] = [];
    for (const c of channels) {
      const partitions = c.bindings?.kafka?.partitions;
      if (!Number.isInteger(partitions) || partitions! < 1) problems.push(`${c.address}: no kafka partitions binding`);
      const fields = (c['x-message-key'] ?? '').split(/,\s*else\s+/).filter(Boolean);
      if (fields.length === 0) problems.push(`${c.address}: no x-message-key`);
      const payload = contractFor(c.address, 1)?.payloadClass;
      const properties = new Set(
        payload
          ? getMetadataStorage()
              .getTargetValidationMetadatas(payload, '', true, false)
              .map((m) => m.propertyName)
          : [],
      );
      for (const field of fields)
        if (field !== 'projectId' && !(field.startsWith('payload.') && properties.has(field.slice('payload.'.length))))
          problems.push(`${c.address}: key ${field} is not a field of its payload`);
    }
    expect(problems).toEqual([]);
  });
});
