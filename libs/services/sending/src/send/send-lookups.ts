import { MicroBatcher, type MicroBatcherOptions } from '@herald/core';
import type { DataSource } from 'typeorm';
import type { ContactsClient, RemoteContact } from './contacts-client.js';
import { byProject, callFor, chunksOf, currentPositions, requestIdOf, type BatchedRequest } from './send-batch.js';
import type { SendStore } from './send.store.js';

/** What /v1/send's preflight reads for a request's recipients. */
export interface RecipientLookup {
  /** The existing contacts of its addresses. */
  found: RemoteContact[];
  /** Its addresses on the project's suppression list. */
  suppressed: Set<string>;
}

interface PendingLookup extends BatchedRequest {
  emails: string[];
}

/** Addresses one contacts `find` takes at most (FindContactsRequest). */
const FIND_MAX = 500;

/**
 * The preflight reads of /v1/send, shared by concurrent requests (group execution, `MicroBatcher`):
 * the requests of a project that wait together are answered by one contacts `find` over all their
 * addresses and one suppression query, each request then given only its own addresses' answers,
 * exactly what it would have read alone. Every request joins a lookup that starts after it asked
 * (never an earlier one), so it reads at least as fresh as alone; the `find` observes what every
 * one of them must (read-your-writes). When a shared lookup fails, each request is looked up on its
 * own, so that one request's failure is never another's.
 */
export class SendLookups {
  private readonly batcher: MicroBatcher<PendingLookup, RecipientLookup>;

  constructor(
    private readonly db: DataSource,
    private readonly store: Pick<SendStore, 'suppressed'>,
    private readonly contacts: Pick<ContactsClient, 'findByEmails'>,
    options: MicroBatcherOptions = { maxBatch: 100, maxConcurrent: 2 },
  ) {
    this.batcher = new MicroBatcher((batch) => this.run(batch), options);
  }

  lookup(projectId: string, emails: string[], requestId?: string): Promise<RecipientLookup> {
    return this.batcher.submit({ projectId, emails, requestId, positions: currentPositions() });
  }

  private async run(batch: PendingLookup[]): Promise<PromiseSettledResult<RecipientLookup>[]> {
    const results: PromiseSettledResult<RecipientLookup>[] = new Array(batch.length);
    const chunks = [...byProject(batch).values()].flatMap((group) =>
      chunksOf(group, ({ item }) => item.emails.length, FIND_MAX),
    );
    await Promise.all(
      chunks.map(async (chunk) => {
        const answers = await this.chunk(chunk.map(({ item }) => item));
        chunk.forEach(({ index }, k) => (results[index] = answers[k]!));
      }),
    );
    return results;
  }

  /** Requests of one project, at most FIND_MAX addresses in all (one request may have up to 50). */
  private async chunk(requests: PendingLookup[]): Promise<PromiseSettledResult<RecipientLookup>[]> {
    const projectId = requests[0]!.projectId;
    const emails = [...new Set(requests.flatMap((r) => r.emails))];
    try {
      const [found, suppressed] = await Promise.all([
        callFor(projectId, requests, () => this.contacts.findByEmails(projectId, emails, requestIdOf(requests))),
        this.store.suppressed(this.db, projectId, emails),
      ]);
      return requests.map((r) => {
        const own = new Set(r.emails);
        return {
          status: 'fulfilled',
          value: {
            found: found.filter((c) => own.has(c.email)),
            suppressed: new Set([...suppressed].filter((e) => own.has(e))),
          },
        };
      });
    } catch (err) {
      if (requests.length === 1) return [{ status: 'rejected', reason: err }];
      return Promise.all(requests.map(async (r) => (await this.chunk([r]))[0]!));
    }
  }
}
