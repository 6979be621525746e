import { createHash } from 'node:crypto';
import { conflictError, DomainError, invalidInput } from '@herald/core';
import type { Provider } from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { retentionToken } from '../retention/retention.module.js';
import type { Retention } from '../retention/retention.js';
import { IdempotencyKeysStore } from './idempotency-keys.store.js';

/** A request with this Idempotency-Key is still running (409). */
export const IDEMPOTENCY_KEY_IN_USE = 'IDEMPOTENCY_KEY_IN_USE';

/** This Idempotency-Key was used with another body within its 24 hours (409, Stripe's rule). */
export const IDEMPOTENCY_KEY_REUSED = 'IDEMPOTENCY_KEY_REUSED';

/** The longest key accepted (the column's length). */
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;

/** JSON with every object's keys sorted: two bodies that differ only in key order are the same request. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v ?? null)).join(',')}]`;
  if (value !== null && typeof value === 'object' && !(value instanceof Date)) {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/** The fingerprint a key keeps of its request: SHA-256 of the body's JSON, keys in sorted order. */
export function requestFingerprint(body: unknown): string {
  return createHash('sha256').update(canonicalJson(body)).digest('hex');
}

/** For a controller: the `Idempotency-Key` header is optional; a repeated one is refused (400). */
export function idempotencyKeyOf(value: string | string[] | undefined): string | undefined {
  if (Array.isArray(value)) throw new DomainError('bad_request', 'VALIDATION_ERROR', 'Send one Idempotency-Key header');
  return value;
}

/**
 * Runs public writes under their `Idempotency-Key` (Stripe's rule, docs/errors.md): per project, the
 * first request with a key claims it and runs; for 24 hours, a request with the same key and the
 * same body (`requestFingerprint`) gets the first one's answer again and runs nothing; the same key
 * with another body is 409 IDEMPOTENCY_KEY_REUSED; while the first still runs, 409
 * IDEMPOTENCY_KEY_IN_USE. A request that fails gives its key back, so its retry runs it again.
 * The rows are the service's own (`idempotency_keys` of `db`'s schema; `idempotencyKeysRetention`).
 */
export class IdempotentRequests {
  constructor(
    private readonly db: DataSource,
    private readonly keys = new IdempotencyKeysStore(),
  ) {}

  async run<R>(projectId: string, key: string, body: unknown, work: () => Promise<R>): Promise<R> {
    if (key.length === 0 || key.length > IDEMPOTENCY_KEY_MAX_LENGTH) {
      throw invalidInput([
        {
          field: 'Idempotency-Key',
          message: `Idempotency-Key must be 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} characters`,
          code: 'invalid_string',
        },
      ]);
    }
    const hash = requestFingerprint(body);
    // a key is remembered for 24 hours: an older row is taken over as if it were new
    while (!(await this.keys.claim(this.db, projectId, key, hash))) {
      const previous = await this.keys.kept<R>(this.db, projectId, key);
      if (!previous) continue; // given back meanwhile (its request failed): claim it again
      if (previous.requestHash !== hash) {
        throw conflictError(
          IDEMPOTENCY_KEY_REUSED,
          'This Idempotency-Key was used with a different request body',
          'Send the first body again to receive its result, or use a new Idempotency-Key for a new request.',
        );
      }
      if (previous.response === null) {
        throw conflictError(
          IDEMPOTENCY_KEY_IN_USE,
          'A request with this Idempotency-Key is still being processed',
          'Retry in a moment to receive its result.',
        );
      }
      return previous.response;
    }
    try {
      const result = await work();
      await this.keys.answer(this.db, projectId, key, result);
      return result;
    } catch (err) {
      await this.keys.release(this.db, projectId, key);
      throw err;
    }
  }
}

/**
 * The provider that registers the pruning of `service`'s `idempotency_keys` with its retention
 * (docs/operations.md, Retention): rows 25 hours after their claim (`IdempotencyKeysStore.pruneExpired`).
 */
export function idempotencyKeysRetention(service: string): Provider {
  return {
    provide: `herald:${service}-idempotency-keys-retention`,
    inject: [retentionToken(service), getDataSourceToken(service)],
    useFactory: (retention: Retention, db: DataSource) => {
      const keys = new IdempotencyKeysStore();
      retention.register({ table: 'idempotency_keys', pruneBatch: (limit) => keys.pruneExpired(db, limit) });
      return true;
    },
  };
}
