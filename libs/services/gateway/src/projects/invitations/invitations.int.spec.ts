import { createHash } from 'node:crypto';
import { DomainError } from '@herald/core';
import { createServiceDataSource, migrateServiceSchema } from '@herald/persistence';
import { createTestDatabase, type TestDatabase } from '@herald/testing';
import type { DataSource } from 'typeorm';
import type { AccountMail } from '../../accounts/account-mail.js';
import { SignUpInvitations } from '../../accounts/sign-up-invitations.js';
import { SignUpUseCase } from '../../accounts/sign-up.use-case.js';
import { User } from '../../accounts/user.entity.js';
import { gatewaySchema } from '../../gateway.module.js';
import { GatewaySettings } from '../../gateway.settings.js';
import { Membership } from '../membership.entity.js';
import type { ProjectMail } from '../project-mail.js';
import { ProjectInvitation } from './invitation.entity.js';
import { InvitationAcceptance } from './invitation-acceptance.js';
import { InvitationTokens } from './invitation-tokens.js';
import { InvitationStore } from './invitation.store.js';
import { INVITATION_TTL_MS, InvitationsService } from './invitations.service.js';

/**
 * Project invitations against real PostgreSQL, through the invite → email token → accept path: an
 * invitation is bound to the address it was sent to (a leaked link is refused to any other account and
 * is not spent by the refusal), and whoever holds it without an account signs up with it.
 */
describe('project invitations (PostgreSQL)', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let invitations: InvitationsService;
  let signUp: SignUpUseCase;
  const tokens = new InvitationTokens(new InvitationStore());
  /** The verification emails queued, by user id (the invitation emails are issued by `emailed`). */
  const verificationsQueued: string[] = [];
  let seq = 0;

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = await createServiceDataSource(gatewaySchema, db.url, 4).initialize();
    await migrateServiceSchema(ds);
    const accountMail = {
      schedule: async (_m: unknown, kind: string, key: string) => {
        if (kind === 'verification') verificationsQueued.push(key);
      },
    } as unknown as AccountMail;
    const projectMail = { invite: async () => undefined } as unknown as ProjectMail;
    const acceptance = new InvitationAcceptance(tokens);
    invitations = new InvitationsService(ds, projectMail, acceptance);
    // as ProjectsModule plugs it in: a sign-up with a token accepts the invitation
    const signUpInvitations = new SignUpInvitations();
    signUpInvitations.redeemWith((m, user, token) => acceptance.accept(m, user, token));
    signUp = new SignUpUseCase(ds, new GatewaySettings(), accountMail, signUpInvitations);
  });
  afterAll(async () => {
    await ds.destroy();
    await db.drop();
  });

  /** An account as sign-up and verification leave it (the password is irrelevant here). */
  const account = async (email: string, verified = true): Promise<User> => {
    const id = `usr_inv_${++seq}`;
    await ds.getRepository(User).insert({
      id,
      email,
      name: null,
      passwordHash: 'not-a-hash',
      sessionVersion: 1,
      emailVerifiedAt: verified ? new Date() : null,
    });
    return ds.getRepository(User).findOneByOrFail({ id });
  };
  /** A project with its OWNER. */
  const project = async (): Promise<{ projectId: string; ownerId: string }> => {
    const owner = await account(`owner${++seq}@example.com`);
    const projectId = `prj_inv_${seq}`;
    await ds.getRepository(Membership).insert({ projectId, userId: owner.id, role: 'OWNER' });
    return { projectId, ownerId: owner.id };
  };
  /** Invites `email` to a new project and issues the token its email carries (what the mail job does). */
  const emailed = async (email: string, role: 'MEMBER' | 'ADMIN' = 'MEMBER') => {
    const p = await project();
    const outcome = await invitations.invite(p.ownerId, p.projectId, email, role);
    if (!('invited' in outcome)) throw new Error(`${email} has an account: it was added, not invited`);
    const issued = (await ds.transaction((m) => tokens.issue(m, outcome.invited.id)))!;
    return { ...p, invitationId: outcome.invited.id, token: issued.token };
  };
  const refusal = async (attempt: Promise<unknown>): Promise<{ code: string; kind: string; message: string }> => {
    try {
      await attempt;
    } catch (err) {
      if (err instanceof DomainError) return { code: err.code, kind: err.kind, message: err.message };
      throw err;
    }
    throw new Error('the attempt was accepted');
  };
  const roleIn = async (projectId: string, userId: string) =>
    (await ds.getRepository(Membership).findOneBy({ projectId, userId }))?.role ?? null;

  it('another verified account (another address) is refused with 403 INVITATION_EMAIL_MISMATCH, and the token still works for the invitee', async () => {
    const invite = await emailed('invitee@elsewhere.test');
    const otherOwner = await account(`other-owner${seq}@example.com`);
    const refused = await refusal(invitations.accept(otherOwner.id, invite.token));
    expect(refused).toMatchObject({ code: 'INVITATION_EMAIL_MISMATCH', kind: 'forbidden' });
    expect(refused.message).toContain('i***@e***.test');
    expect(refused.message).not.toContain('invitee@elsewhere.test');
    expect(await roleIn(invite.projectId, otherOwner.id)).toBeNull();

    const invitee = await account('invitee@elsewhere.test');
    expect(await invitations.accept(invitee.id, invite.token)).toEqual({ projectId: invite.projectId, role: 'MEMBER' });
    expect(await roleIn(invite.projectId, invitee.id)).toBe('MEMBER');
  });

  it('the invitee whose address is not verified yet is refused with 403 EMAIL_NOT_VERIFIED; once verified, the same token is accepted', async () => {
    const invite = await emailed('unverified@example.com', 'ADMIN');
    const invitee = await account('unverified@example.com', false);
    expect(await refusal(invitations.accept(invitee.id, invite.token))).toMatchObject({
      code: 'EMAIL_NOT_VERIFIED',
      kind: 'forbidden',
    });
    expect(await roleIn(invite.projectId, invitee.id)).toBeNull();

    await ds.getRepository(User).update({ id: invitee.id }, { emailVerifiedAt: new Date() });
    expect(await invitations.accept(invitee.id, invite.token)).toEqual({ projectId: invite.projectId, role: 'ADMIN' });
  });

  it('the invitee accepts once: a second acceptance fails with INVALID_INVITATION_TOKEN', async () => {
    const invite = await emailed('once@example.com');
    const invitee = await account('once@example.com');
    await invitations.accept(invitee.id, invite.token);
    expect(await refusal(invitations.accept(invitee.id, invite.token))).toMatchObject({
      code: 'INVALID_INVITATION_TOKEN',
      kind: 'bad_request',
    });
  });

  it('an invitation expires 7 days after it is sent: an expired token fails with INVALID_INVITATION_TOKEN', async () => {
    const before = Date.now();
    const invite = await emailed('late@example.com');
    const row = await ds.getRepository(ProjectInvitation).findOneByOrFail({ id: invite.invitationId });
    expect(row.expiresAt.getTime()).toBeGreaterThanOrEqual(before + INVITATION_TTL_MS);
    expect(row.expiresAt.getTime()).toBeLessThanOrEqual(Date.now() + INVITATION_TTL_MS);
    expect(INVITATION_TTL_MS).toBe(7 * 24 * 3600_000);

    await ds
      .getRepository(ProjectInvitation)
      .update({ id: invite.invitationId }, { expiresAt: new Date(Date.now() - 1) });
    const invitee = await account('late@example.com');
    expect(await refusal(invitations.accept(invitee.id, invite.token))).toMatchObject({
      code: 'INVALID_INVITATION_TOKEN',
    });
    expect(await roleIn(invite.projectId, invitee.id)).toBeNull();
  });

  it('a revoked invitation’s token fails with INVALID_INVITATION_TOKEN', async () => {
    const invite = await emailed('revoked@example.com');
    await invitations.revoke(invite.ownerId, invite.projectId, invite.invitationId);
    const invitee = await account('revoked@example.com');
    expect(await refusal(invitations.accept(invitee.id, invite.token))).toMatchObject({
      code: 'INVALID_INVITATION_TOKEN',
    });
    expect(await refusal(invitations.revoke(invite.ownerId, invite.projectId, invite.invitationId))).toMatchObject({
      code: 'INVITATION_NOT_FOUND',
    });
  });

  it('only the SHA-256 of the token is stored', async () => {
    const invite = await emailed('hashed@example.com');
    const [row] = (await ds.query(`SELECT * FROM gateway.project_invitations WHERE id = $1`, [
      invite.invitationId,
    ])) as [Record<string, unknown>];
    expect(row['token_hash']).toBe(createHash('sha256').update(invite.token).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(invite.token);
  });

  it('sign-up with the invitation token creates the invited address’s account verified and a member, with no verification email', async () => {
    const invite = await emailed('newcomer@example.com', 'ADMIN');
    const user = await signUp.execute({
      email: ' NewComer@Example.com ',
      password: 'long enough password',
      invitationToken: invite.token,
    });
    expect(user.email).toBe('newcomer@example.com');
    expect(user.emailVerifiedAt).not.toBeNull();
    expect(await roleIn(invite.projectId, user.id)).toBe('ADMIN');
    expect(verificationsQueued).not.toContain(user.id);
    const row = await ds.getRepository(ProjectInvitation).findOneByOrFail({ id: invite.invitationId });
    expect([row.acceptedBy, row.acceptedAt !== null]).toEqual([user.id, true]);
  });

  it('sign-up with a token for another address is refused with INVITATION_EMAIL_MISMATCH, creates nothing, and spends nothing', async () => {
    const invite = await emailed('rightful@example.com');
    expect(
      await refusal(
        signUp.execute({
          email: 'mallory@example.com',
          password: 'long enough password',
          invitationToken: invite.token,
        }),
      ),
    ).toMatchObject({ code: 'INVITATION_EMAIL_MISMATCH', kind: 'forbidden' });
    expect(await ds.getRepository(User).findOneBy({ email: 'mallory@example.com' })).toBeNull();

    const rightful = await signUp.execute({
      email: 'rightful@example.com',
      password: 'long enough password',
      invitationToken: invite.token,
    });
    expect(await roleIn(invite.projectId, rightful.id)).toBe('MEMBER');
  });

  it('sign-up with a spent token fails with INVALID_INVITATION_TOKEN and creates no account', async () => {
    const invite = await emailed('spent@example.com');
    await invitations.accept((await account('spent@example.com')).id, invite.token);
    expect(
      await refusal(
        signUp.execute({
          email: 'spent2@example.com',
          password: 'long enough password',
          invitationToken: invite.token,
        }),
      ),
    ).toMatchObject({ code: 'INVALID_INVITATION_TOKEN' });
    expect(await ds.getRepository(User).findOneBy({ email: 'spent2@example.com' })).toBeNull();
  });

  it('sign-up without a token starts unverified and queues the verification email', async () => {
    const user = await signUp.execute({ email: 'plain@example.com', password: 'long enough password' });
    expect(user.emailVerifiedAt).toBeNull();
    expect(verificationsQueued).toContain(user.id);
  });

  it('of two concurrent acceptances by the invitee, one joins and the other finds the token spent', async () => {
    const invite = await emailed('twice@example.com');
    const invitee = await account('twice@example.com');
    const outcomes = await Promise.allSettled([
      invitations.accept(invitee.id, invite.token),
      invitations.accept(invitee.id, invite.token),
    ]);
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    const failed = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected')!;
    expect((failed.reason as DomainError).code).toBe('INVALID_INVITATION_TOKEN');
  });
});
