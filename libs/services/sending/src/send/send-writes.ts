import { MicroBatcher, settle, type MicroBatcherOptions } from '@herald/core';
import type { DataSource } from 'typeorm';
import type { SendAdmission } from '../admission/send-admission.js';
import type { ContactsClient, RecipientUpsert, RemoteUpsert } from './contacts-client.js';
import {
  byProject,
  callFor,
  chunksOf,
  currentPositions,
  jsonValues,
  requestIdOf,
  type BatchedRequest,
} from './send-batch.js';
import { charsOf, INSERT_MAX_CHARS, type NewEmail, type SendStore } from './send.store.js';

/** The writes of one /v1/send whose preflight passed. */
export interface SendWrite<A> extends BatchedRequest {
  /**
   * Emails the request sends, all of the transactional category (docs/billing.md): what admission
   * reserves. Test-mode emails are not counted (docs/test-mode.md); a request of none asks nothing.
   */
  count: number;
  /** Its recipients' contact upserts, in order. */
  upserts: RecipientUpsert[];
  /**
   * A test key's request (docs/test-mode.md): no contact is written; its emails are composed for
   * these contacts as planned, one per recipient, in order (its `upserts` are empty).
   */
  simulated?: RemoteUpsert[];
  /** Its emails and answer for the contacts the upserts wrote (throws the request's own refusal). */
  compose(written: RemoteUpsert[]): Promise<{ emails: NewEmail[]; answer: A }>;
}

/** Upserts one contacts call takes at most (UpsertContactsRequest). */
const UPSERT_MAX = 500;
/**
 * JSON values one shared `upsertMany` carries at most: half of what an internal call's body may hold
 * (BODY_JSON_LIMITS.maxValues, distributed mode), so that requests with much `data` (copied to each
 * recipient's upsert) are split over several calls rather than refused together.
 */
const UPSERT_MAX_VALUES = 10_000;
/** Values of an upsert besides its data: the object, email, subscribed, data, idIfNew, subscribedIfNew, reason. */
const UPSERT_OWN_VALUES = 7;

interface Composed {
  index: number;
  emails: NewEmail[];
  answer: unknown;
}

/**
 * The writes of /v1/send with group commit (`MicroBatcher`): the requests whose preflight passed
 * while earlier writes were in flight are written together, each answered exactly as if it had
 * been written alone.
 * 1. Admission, asked for every request after it joined the batch (never from an earlier answer):
 *    the requests of a project in one call for all their emails; when that is refused, each is asked
 *    on its own, so each gets its own answer and a capped category reserves exactly what the
 *    requests asked one by one would (each reservation is atomic). A refused request writes nothing.
 * 2. The contacts of every admitted request of a project upserted in one contacts `upsertMany` (up to
 *    500 upserts, in request order, one transaction; a request larger than that alone, a
 *    /v1/send/batch, in consecutive calls). The call is all or nothing: when it fails, each
 *    request's upserts are sent again on their own, so one request's error is never another's.
 *    Each request records the positions the call wrote as its own (read-your-writes).
 * 3. Each request's emails composed for the contacts written (a refusal there is the request's own).
 * 4. Every email of the batch inserted in one statement (one transaction) with one NOTIFY for the
 *    delivery worker; if that fails, each request's emails are inserted on their own.
 * A request retried on its own is retried at once with the others of its batch, as concurrent
 * requests would be sent: a shared call that timed out costs one more timeout, not one per request.
 * Up to 100 requests a batch and two batches in flight (one slow batch does not hold every send).
 */
export class SendWrites {
  private readonly batcher: MicroBatcher<SendWrite<unknown>, unknown>;

  constructor(
    private readonly db: DataSource,
    private readonly store: Pick<SendStore, 'insertEmails'>,
    private readonly contacts: Pick<ContactsClient, 'upsertMany'>,
    private readonly admission: Pick<SendAdmission, 'admit'>,
    options: MicroBatcherOptions = { maxBatch: 100, maxConcurrent: 2 },
  ) {
    this.batcher = new MicroBatcher((batch) => this.run(batch), options);
  }

  /** Writes the request (with the current request's positions) and answers what its `compose` answered. */
  write<A>(request: Omit<SendWrite<A>, 'positions'>): Promise<A> {
    return this.batcher.submit({ ...request, positions: currentPositions() }) as Promise<A>;
  }

  private async run(batch: SendWrite<unknown>[]): Promise<PromiseSettledResult<unknown>[]> {
    const results: PromiseSettledResult<unknown>[] = new Array(batch.length);
    const composed: Composed[] = [];
    const failed = (index: number, reason: unknown) => (results[index] = { status: 'rejected', reason });
    await Promise.all(
      [...byProject(batch)].map(async ([projectId, group]) => {
        const admitted = await this.admit(
          projectId,
          group.map(({ item }) => item),
        );
        const writing = group.filter(({ index }, k) => {
          const verdict = admitted[k]!;
          if (verdict.status === 'rejected') failed(index, verdict.reason);
          return verdict.status === 'fulfilled';
        });
        const composeFor = async (
          { item, index }: { item: SendWrite<unknown>; index: number },
          upserts: PromiseSettledResult<RemoteUpsert[]>,
        ) => {
          if (upserts.status === 'rejected') return failed(index, upserts.reason);
          const outcome = await settle(() => item.compose(upserts.value));
          if (outcome.status === 'rejected') failed(index, outcome.reason);
          else composed.push({ index, ...outcome.value });
        };
        // a test key's requests write no contact: composed for their contacts as planned
        await Promise.all(
          writing
            .filter(({ item }) => item.simulated)
            .map((w) => composeFor(w, { status: 'fulfilled', value: w.item.simulated! })),
        );
        const upserting = writing.filter(({ item }) => !item.simulated);
        for (const chunk of chunksOf(upserting, ({ item }) => shareOf(item.upserts), 1)) {
          const written = await this.upsert(
            projectId,
            chunk.map(({ item }) => item),
          );
          await Promise.all(chunk.map((w, k) => composeFor(w, written[k]!)));
        }
      }),
    );
    for (const { entry, outcome } of await this.insert(composed))
      results[entry.index] = outcome.status === 'fulfilled' ? { status: 'fulfilled', value: entry.answer } : outcome;
    return results;
  }

  /** Admission for each request of one project (see the class): one call for all, else one each. */
  private async admit(projectId: string, requests: SendWrite<unknown>[]): Promise<PromiseSettledResult<void>[]> {
    // a request of test-mode emails only (docs/test-mode.md) is not billed: it asks nothing
    const one = (r: SendWrite<unknown>) =>
      r.count === 0
        ? Promise.resolve<PromiseSettledResult<void>>({ status: 'fulfilled', value: undefined })
        : settle(() =>
            callFor(projectId, [r], () => this.admission.admit(projectId, 'transactional', r.count, r.requestId)),
          );
    if (requests.filter((r) => r.count > 0).length > 1) {
      const total = requests.reduce((n, r) => n + r.count, 0);
      const together = await settle(() =>
        callFor(projectId, requests, () =>
          this.admission.admit(projectId, 'transactional', total, requestIdOf(requests)),
        ),
      );
      if (together.status === 'fulfilled') return requests.map(() => together);
    }
    return Promise.all(requests.map(one));
  }

  /** The upserts of requests of one project (at most one call's worth, `shareOf`): one call, else one per request. */
  private async upsert(
    projectId: string,
    requests: SendWrite<unknown>[],
  ): Promise<PromiseSettledResult<RemoteUpsert[]>[]> {
    // a request past one call's worth (a /v1/send/batch) is sent in consecutive calls, in order (each
    // upsert's share in integer billionths: 500 shares of 1/500 add up to exactly one call)
    const one = (r: SendWrite<unknown>) =>
      settle(() =>
        callFor(projectId, [r], async () => {
          const written: RemoteUpsert[] = [];
          for (const part of chunksOf(r.upserts, (u) => Math.round(shareOf([u]) * 1e9), 1e9))
            written.push(...(await this.contacts.upsertMany(projectId, part, r.requestId)));
          return written;
        }),
      );
    if (requests.length === 1) return [await one(requests[0]!)];
    const together = await settle(() =>
      callFor(projectId, requests, () =>
        this.contacts.upsertMany(
          projectId,
          requests.flatMap((r) => r.upserts),
          requestIdOf(requests),
        ),
      ),
    );
    if (together.status === 'fulfilled') {
      let at = 0;
      return requests.map((r) => {
        const own = together.value.slice(at, (at += r.upserts.length));
        return { status: 'fulfilled', value: own };
      });
    }
    return Promise.all(requests.map(one));
  }

  /** Inserts the composed requests' emails: together (up to INSERT_MAX_CHARS a statement), else each on its own. */
  private async insert(composed: Composed[]): Promise<{ entry: Composed; outcome: PromiseSettledResult<void> }[]> {
    const out: { entry: Composed; outcome: PromiseSettledResult<void> }[] = [];
    for (const chunk of chunksOf(composed, (c) => charsOf(c.emails), INSERT_MAX_CHARS)) {
      const together = await settle(() =>
        this.store.insertEmails(
          this.db,
          chunk.flatMap((c) => c.emails),
        ),
      );
      if (together.status === 'fulfilled' || chunk.length === 1) {
        for (const entry of chunk) out.push({ entry, outcome: together });
        continue;
      }
      const alone = await Promise.all(
        chunk.map((entry) => settle(() => this.store.insertEmails(this.db, entry.emails))),
      );
      chunk.forEach((entry, k) => out.push({ entry, outcome: alone[k]! }));
    }
    return out;
  }
}

/** The share of one `upsertMany` the upserts take: of UPSERT_MAX upserts or of UPSERT_MAX_VALUES values, the larger. */
function shareOf(upserts: RecipientUpsert[]): number {
  const counted = new Map<unknown, number>();
  let values = 0;
  for (const u of upserts) {
    let n = counted.get(u.data);
    if (n === undefined) counted.set(u.data, (n = jsonValues(u.data)));
    values += UPSERT_OWN_VALUES + n;
  }
  return Math.max(upserts.length / UPSERT_MAX, values / UPSERT_MAX_VALUES);
}
