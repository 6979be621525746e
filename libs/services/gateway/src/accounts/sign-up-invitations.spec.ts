import type { EntityManager } from 'typeorm';
import { SignUpInvitations } from './sign-up-invitations.js';
import type { User } from './user.entity.js';

describe('SignUpInvitations: how a sign-up with an invitation joins its project', () => {
  const m = {} as EntityManager;
  const account = { id: 'usr_1', email: 'a@example.com' } as User;

  it('fails loudly while no redeemer is plugged in, rather than creating the account outside the project', () => {
    expect(() => new SignUpInvitations().redeem(m, account, 'tok')).toThrow(/No invitation redeemer/);
  });

  it("the plugged-in redeemer gets the sign-up's transaction, the new account and the token, and its refusal is the sign-up's", async () => {
    const port = new SignUpInvitations();
    const seen: unknown[][] = [];
    port.redeemWith(async (manager, user, token) => {
      seen.push([manager, user, token]);
      if (token === 'dead') throw new Error('INVALID_INVITATION_TOKEN');
    });
    await port.redeem(m, account, 'tok');
    expect(seen).toEqual([[m, account, 'tok']]);
    await expect(port.redeem(m, account, 'dead')).rejects.toThrow('INVALID_INVITATION_TOKEN');
  });
});
