import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { User } from './user.entity.js';

/** Spends an invitation token for the account being signed up, in the sign-up's transaction; throws when it may not. */
export type InvitationRedeemer = (manager: EntityManager, account: User, token: string) => Promise<unknown>;

/**
 * How a sign-up with an `invitationToken` joins the inviting project: accounts know nothing of
 * projects, so the projects feature plugs its acceptance in here (ProjectsModule, when it is built).
 */
@Injectable()
export class SignUpInvitations {
  private redeemer?: InvitationRedeemer;

  redeemWith(redeemer: InvitationRedeemer): void {
    this.redeemer = redeemer;
  }

  redeem(manager: EntityManager, account: User, token: string): Promise<unknown> {
    if (!this.redeemer) throw new Error('No invitation redeemer is plugged in (ProjectsModule provides it)');
    return this.redeemer(manager, account, token);
  }
}
