import { normaliseEmail } from '../../accounts/accounts.service.js';
import type { User } from '../../accounts/user.entity.js';
import type { ProjectInvitation } from './invitation.entity.js';
import { InvitationErrors } from './invitation.errors.js';

/**
 * An invitation is bound to the address it was sent to: only an account with that address (compared
 * normalised), once the address is verified, may accept it. A leaked link is worth nothing to any
 * other account, nor to an account that merely claims the address without having verified it.
 */
export function assertInvitee(
  invitation: Pick<ProjectInvitation, 'email'>,
  account: Pick<User, 'email' | 'emailVerifiedAt'>,
): void {
  if (normaliseEmail(account.email) !== normaliseEmail(invitation.email))
    throw InvitationErrors.emailMismatch(invitation.email);
  if (!account.emailVerifiedAt) throw InvitationErrors.emailNotVerified();
}
