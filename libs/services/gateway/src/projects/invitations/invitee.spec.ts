import { DomainError } from '@herald/core';
import { maskedAddress } from './invitation.errors.js';
import { assertInvitee } from './invitee.js';

const codeOf = (check: () => void): string | null => {
  try {
    check();
    return null;
  } catch (err) {
    if (err instanceof DomainError) return err.code;
    throw err;
  }
};

describe('who may accept an invitation', () => {
  const invitation = { email: 'pia@example.com' };
  const verified = new Date();

  it('the account of the invited address, verified, may accept (addresses compared normalised)', () => {
    expect(codeOf(() => assertInvitee(invitation, { email: 'pia@example.com', emailVerifiedAt: verified }))).toBeNull();
    expect(
      codeOf(() => assertInvitee(invitation, { email: ' Pia@Example.COM ', emailVerifiedAt: verified })),
    ).toBeNull();
  });

  it('an account of another address is refused with INVITATION_EMAIL_MISMATCH, verified or not', () => {
    for (const emailVerifiedAt of [verified, null])
      expect(codeOf(() => assertInvitee(invitation, { email: 'quinn@example.com', emailVerifiedAt }))).toBe(
        'INVITATION_EMAIL_MISMATCH',
      );
  });

  it('the invited address not yet verified is refused with EMAIL_NOT_VERIFIED', () => {
    expect(codeOf(() => assertInvitee(invitation, { email: 'pia@example.com', emailVerifiedAt: null }))).toBe(
      'EMAIL_NOT_VERIFIED',
    );
  });

  it('the refusal shows the invited address masked: first letters and top-level domain only', () => {
    expect(maskedAddress('invitee@elsewhere.test')).toBe('i***@e***.test');
    expect(maskedAddress('a@mail.example.co')).toBe('a***@m***.co');
    expect(maskedAddress('root@localhost')).toBe('r***@l***');
  });
});
