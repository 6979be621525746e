import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module.js';
import { SignUpInvitations } from '../accounts/sign-up-invitations.js';
import { GatewayCoreModule } from '../gateway-core.module.js';
import { InvitationAcceptance } from './invitations/invitation-acceptance.js';
import { InvitationTokens } from './invitations/invitation-tokens.js';
import { InvitationStore } from './invitations/invitation.store.js';
import { InvitationsService } from './invitations/invitations.service.js';
import { MembersService } from './members.service.js';
import { ProjectMail } from './project-mail.js';
import { MeController, ProjectTeamController } from './projects.controller.js';
import { ProjectsService } from './projects.service.js';
import { ProjectSetupStore } from './setup/project-setup.store.js';

/**
 * Projects, their API keys, members and invitations, their onboarding state, and the emails a
 * project sends (invitations, notices to its owners). A sign-up with an invitation token accepts
 * it here: this module plugs its acceptance into the accounts' SignUpInvitations.
 */
@Module({
  imports: [GatewayCoreModule, AccountsModule],
  controllers: [MeController, ProjectTeamController],
  providers: [
    ProjectsService,
    MembersService,
    InvitationStore,
    InvitationTokens,
    InvitationAcceptance,
    InvitationsService,
    ProjectMail,
    ProjectSetupStore,
  ],
  exports: [ProjectMail, ProjectSetupStore],
})
export class ProjectsModule {
  constructor(signUp: SignUpInvitations, acceptance: InvitationAcceptance) {
    signUp.redeemWith((manager, account, token) => acceptance.accept(manager, account, token));
  }
}
