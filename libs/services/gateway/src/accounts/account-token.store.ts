import { tableName } from '@herald/persistence';
import { Injectable } from '@nestjs/common';
import { IsNull, type EntityManager } from 'typeorm';
import { AccountToken, type AccountTokenPurpose } from './account-token.entity.js';

/** The account tokens' rows (`account_tokens`): only hashes, each used at most once. */
@Injectable()
export class AccountTokenStore {
  /** Marks the user's unused tokens of the purpose used: they stop working. */
  async revokeUnused(manager: EntityManager, userId: string, purpose: AccountTokenPurpose): Promise<void> {
    await manager.update(AccountToken, { userId, purpose, usedAt: IsNull() }, { usedAt: new Date() });
  }

  async insert(manager: EntityManager, token: Omit<AccountToken, 'createdAt'>): Promise<void> {
    await manager.insert(AccountToken, token);
  }

  /** Marks the unused, unexpired token of this hash and purpose used; its user id, or null when there is none. */
  async consume(manager: EntityManager, tokenHash: string, purpose: AccountTokenPurpose): Promise<string | null> {
    // UPDATE … RETURNING through the driver: TypeORM's update builder drops RETURNING here.
    const [rows] = (await manager.query(
      `UPDATE ${tableName(manager, AccountToken)} SET used_at = now()
        WHERE token_hash = $1 AND purpose = $2 AND used_at IS NULL AND expires_at > now()
        RETURNING user_id`,
      [tokenHash, purpose],
    )) as [{ user_id: string }[], number];
    return rows[0]?.user_id ?? null;
  }
}
