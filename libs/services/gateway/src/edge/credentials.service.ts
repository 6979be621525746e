import type { Principal } from '@herald/contracts';
import { MicroBatcher } from '@herald/core';
import { Injectable } from '@nestjs/common';
import { API_KEY_PATTERN, hashApiKey } from '../projects/api-keys.js';
import { CredentialsStore, type KeyOwner, type ProjectMember } from './credentials.store.js';

export type { KeyOwner, ProjectMember };

/**
 * Looks up who a credential belongs to, with no cache (a rotated or revoked key stops at once, on
 * every replica). Key lookups of concurrent requests are grouped: those that arrive while a lookup
 * is in flight go together in the next one (one indexed query for many requests), and each is
 * answered by a query sent after it arrived, so it is as fresh as a lookup of its own.
 */
@Injectable()
export class CredentialsService {
  private readonly perRequest = new WeakMap<object, { key: string; owner: Promise<KeyOwner | null> }>();
  private readonly keyLookups = new MicroBatcher<string, KeyOwner | null>((hashes) => this.lookupKeys(hashes), {
    maxBatch: 500,
    maxConcurrent: 2,
  });

  constructor(private readonly store: CredentialsStore) {}

  /**
   * The owner of `key` for one request: looked up once, whoever asks first (the early check before
   * the body is read, then the guard), so authenticating before the body costs no second query.
   */
  keyOwnerFor(request: object, key: string): Promise<KeyOwner | null> {
    const known = this.perRequest.get(request);
    if (known?.key === key) return known.owner;
    const owner = this.keyOwner(key);
    this.perRequest.set(request, { key, owner });
    return owner;
  }

  async keyOwner(key: string): Promise<KeyOwner | null> {
    if (!API_KEY_PATTERN.test(key)) return null;
    return this.keyLookups.submit(hashApiKey(key));
  }

  private async lookupKeys(hashes: string[]): Promise<PromiseSettledResult<KeyOwner | null>[]> {
    const owners = await this.store.keyOwners(hashes);
    return hashes.map((h) => ({ status: 'fulfilled', value: owners.get(h) ?? null }));
  }

  member(userId: string, projectId: string): Promise<ProjectMember | null> {
    return this.store.member(userId, projectId);
  }
}

export type { Principal };
