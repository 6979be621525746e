import { createHash, randomBytes } from 'node:crypto';
import { newId } from '@herald/core';
import { tableName } from '@herald/persistence';
import { Injectable } from '@nestjs/common';
import { IsNull, type EntityManager } from 'typeorm';
import { AccountToken, type AccountTokenPurpose } from './account-token.entity.js';
import { AccountErrors } from './account.errors.js';

const sha256 = (token: string) => createHash('sha256').update(token).digest('hex');

const LIFETIME_MS: Record<AccountTokenPurpose, number> = { 'verify-email': 48 * 3600_000, 'reset-password': 3600_000 };

/** Single-use, expiring tokens for links in account emails; the database holds only their hashes. */
@Injectable()
export class AccountTokens {
  /** Issues a new token, revoking the user's earlier unused ones of the same purpose. */
  async issue(manager: EntityManager, userId: string, purpose: AccountTokenPurpose): Promise<string> {
    await manager.update(AccountToken, { userId, purpose, usedAt: IsNull() }, { usedAt: new Date() });
    const token = randomBytes(32).toString('hex');
    await manager.insert(AccountToken, {
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
    // UPDATE … RETURNING through the driver: TypeORM's update builder drops RETURNING here.
    const [rows] = (await manager.query(
      `UPDATE ${tableName(manager, AccountToken)} SET used_at = now()
        WHERE token_hash = $1 AND purpose = $2 AND used_at IS NULL AND expires_at > now()
        RETURNING user_id`,
      [sha256(token), purpose],
    )) as [{ user_id: string }[], number];
    const row = rows[0];
    if (!row) throw AccountErrors.invalidToken(purpose);
    return row.user_id;
  }
}
