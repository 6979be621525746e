import { createHash } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import type { ProjectInvitation } from './invitation.entity.js';
import { InvitationTokens } from './invitation-tokens.js';
import type { InvitationStore } from './invitation.store.js';

const m = {} as EntityManager;
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const pending = { id: 'inv_1', projectId: 'prj_a', role: 'MEMBER' } as ProjectInvitation;

/** A store holding `invitations` by id; what it was asked, in order. */
function tokensWith(invitations: Record<string, ProjectInvitation>) {
  const calls: unknown[][] = [];
  const store = {
    lockPending: async (_m: EntityManager, id: string) => (calls.push(['lockPending', id]), invitations[id] ?? null),
    setTokenHash: async (_m: EntityManager, id: string, hash: string) => void calls.push(['setTokenHash', id, hash]),
    lockRedeemable: async (_m: EntityManager, hash: string) => (calls.push(['lockRedeemable', hash]), null),
    accept: async (_m: EntityManager, hash: string, userId: string) => (calls.push(['accept', hash, userId]), null),
  } as unknown as InvitationStore;
  return { tokens: new InvitationTokens(store), calls };
}

describe('InvitationTokens: single-use invitation links', () => {
  it('a token is issued only for a pending invitation, and only its SHA-256 is stored', async () => {
    const { tokens, calls } = tokensWith({ inv_1: pending });
    const issued = await tokens.issue(m, 'inv_1');
    expect(issued).toEqual({ invitation: pending, token: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(calls).toEqual([
      ['lockPending', 'inv_1'],
      ['setTokenHash', 'inv_1', sha256(issued!.token)],
    ]);
    expect(await tokens.issue(m, 'inv_gone')).toBeNull();
    expect(calls.at(-1)).toEqual(['lockPending', 'inv_gone']);
  });

  it('a token is looked up and accepted by its hash', async () => {
    const { tokens, calls } = tokensWith({});
    await tokens.redeemable(m, 'tok');
    await tokens.consume(m, 'tok', 'usr_1');
    expect(calls).toEqual([
      ['lockRedeemable', sha256('tok')],
      ['accept', sha256('tok'), 'usr_1'],
    ]);
  });
});
