import { createHash, randomBytes } from 'node:crypto';
import { newId } from '@herald/core';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { AccountTokenPurpose } from './account-token.entity.js';
import { AccountTokenStore } from './account-token.store.js';
import { AccountErrors } from './account.errors.js';

const sha256 = (token: string) => createHash('sha256').update(token).digest('hex');

const LIFETIME_MS: Record<AccountTokenPurpose, number> = { 'verify-email': 48 * 3600_000, 'reset-password': 3600_000 };

/** Single-use, expiring tokens for links in account emails; the database holds only their hashes. */
@Injectable()
export class AccountTokens {
  constructor(private readonly store: AccountTokenStore) {}

  /** Issues a new token, revoking the user's earlier unused ones of the same purpose. */
  async issue(manager: EntityManager, userId: string, purpose: AccountTokenPurpose): Promise<string> {
    await this.store.revokeUnused(manager, userId, purpose);
    const token = randomBytes(32).toString('hex');
    await this.store.insert(manager, {
      id: newId('tok'),
      userId,
      purpose,
      tokenHash: sha256(token),
      expiresAt: new Date(Date.now() + LIFETIME_MS[purpose]),
      usedAt: null,
    });
    return token;
  }

  /** Marks the token used and returns its user id; unknown, used or expired tokens are refused. */
  async consume(manager: EntityManager, token: string, purpose: AccountTokenPurpose): Promise<string> {
    const userId = await this.store.consume(manager, sha256(token), purpose);
    if (!userId) throw AccountErrors.invalidToken(purpose);
    return userId;
  }
}
