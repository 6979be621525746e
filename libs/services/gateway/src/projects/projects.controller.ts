import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Req, Res } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { DataSource } from 'typeorm';
import { userView } from '../accounts/accounts.service.js';
import type { UserView } from '../accounts/account.dto.js';
import type { User } from '../accounts/user.entity.js';
import { GATEWAY } from '../consumer.js';
import { CurrentUser, SessionAuth } from '../accounts/auth-decorators.js';
import type { AcceptedInvitation } from './invitations/invitation-acceptance.js';
import { InvitationsService, type InvitationView } from './invitations/invitations.service.js';
import { MembersService } from './members.service.js';
import { requireMembership } from './project-access.js';
import {
  AcceptInvitationDto,
  AddMemberDto,
  ChangeRoleDto,
  CreateProjectDto,
  UpdateProjectDto,
  type IssuedKeys,
  type IssuedTestKeys,
  type MemberView,
  type ProjectView,
} from './project.dto.js';
import { ProjectsService } from './projects.service.js';
import { ProjectSetup } from './setup/project-setup.entity.js';

@SessionAuth()
@Controller('users/@me')
export class MeController {
  constructor(
    private readonly projects: ProjectsService,
    private readonly invitations: InvitationsService,
  ) {}

  /** Accepts a project invitation (the token of its email) as the signed-in user, who must be its verified address. */
  @Post('invitations/accept')
  @HttpCode(200)
  acceptInvitation(@CurrentUser() user: User, @Body() body: AcceptInvitationDto): Promise<AcceptedInvitation> {
    return this.invitations.accept(user.id, body.token);
  }

  @Get()
  me(@CurrentUser() user: User): UserView {
    return userView(user);
  }

  @Get('projects')
  list(@CurrentUser() user: User): Promise<ProjectView[]> {
    return this.projects.list(user.id);
  }

  /** The response carries the full keys, live and test; they are never shown again (only their prefixes). */
  @Post('projects')
  @HttpCode(201)
  create(
    @CurrentUser() user: User,
    @Body() body: CreateProjectDto,
  ): Promise<ProjectView & IssuedKeys & IssuedTestKeys> {
    return this.projects.create(user.id, body.name);
  }

  @Patch('projects/:id')
  update(@CurrentUser() user: User, @Param('id') id: string, @Body() body: UpdateProjectDto): Promise<ProjectView> {
    return this.projects.update(user.id, id, body);
  }

  /** Rotates both live keys (the test keys stay). */
  @Post('projects/:id/regenerate-keys')
  @HttpCode(200)
  regenerateKeys(@CurrentUser() user: User, @Param('id') id: string): Promise<ProjectView & IssuedKeys> {
    return this.projects.regenerateKeys(user.id, id);
  }

  /** Rotates both test keys (the live keys stay); a project created before test mode gets its first pair. */
  @Post('projects/:id/regenerate-test-keys')
  @HttpCode(200)
  regenerateTestKeys(@CurrentUser() user: User, @Param('id') id: string): Promise<ProjectView & IssuedTestKeys> {
    return this.projects.regenerateTestKeys(user.id, id);
  }

  @Post('projects/:id/reset')
  @HttpCode(202)
  async reset(
    @CurrentUser() user: User,
    @Param('id') id: string,
    @Req() req: FastifyRequest,
  ): Promise<{ success: true }> {
    await this.projects.reset(user.id, id, String(req.id));
    return { success: true };
  }

  @Delete('projects/:id')
  async delete(
    @CurrentUser() user: User,
    @Param('id') id: string,
    @Req() req: FastifyRequest,
  ): Promise<{ success: true }> {
    await this.projects.delete(user.id, id, String(req.id));
    return { success: true };
  }
}

@SessionAuth()
@Controller('projects/:id')
export class ProjectTeamController {
  constructor(
    private readonly members: MembersService,
    private readonly invitations: InvitationsService,
    @InjectDataSource(GATEWAY) private readonly db: DataSource,
  ) {}

  @Get('members')
  list(@CurrentUser() user: User, @Param('id') id: string): Promise<MemberView[]> {
    return this.members.list(user.id, id);
  }

  /** An existing account joins at once (201, the member); another address is invited by email (202, the invitation). */
  @Post('members')
  async add(
    @CurrentUser() user: User,
    @Param('id') id: string,
    @Body() body: AddMemberDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<MemberView | InvitationView> {
    const outcome = await this.invitations.invite(user.id, id, body.email, body.role);
    void reply.status('added' in outcome ? 201 : 202);
    return 'added' in outcome ? outcome.added : outcome.invited;
  }

  @Get('invitations')
  listInvitations(@CurrentUser() user: User, @Param('id') id: string): Promise<InvitationView[]> {
    return this.invitations.list(user.id, id);
  }

  @Delete('invitations/:invitationId')
  async revokeInvitation(
    @CurrentUser() user: User,
    @Param('id') id: string,
    @Param('invitationId') invitationId: string,
  ): Promise<{ success: true }> {
    await this.invitations.revoke(user.id, id, invitationId);
    return { success: true };
  }

  @Patch('members/:userId')
  changeRole(
    @CurrentUser() user: User,
    @Param('id') id: string,
    @Param('userId') userId: string,
    @Body() body: ChangeRoleDto,
  ): Promise<MemberView> {
    return this.members.changeRole(user.id, id, userId, body.role);
  }

  @Delete('members/:userId')
  async remove(
    @CurrentUser() user: User,
    @Param('id') id: string,
    @Param('userId') userId: string,
  ): Promise<{ success: true }> {
    await this.members.remove(user.id, id, userId);
    return { success: true };
  }

  /** Onboarding checklist, from the project's own records and other services' events. */
  @Get('setup-state')
  async setupState(
    @CurrentUser() user: User,
    @Param('id') id: string,
  ): Promise<{ projectId: string; steps: { id: string; done: boolean }[]; completed: boolean }> {
    await requireMembership(this.db.manager, user.id, id);
    const setup = await this.db.getRepository(ProjectSetup).findOneBy({ projectId: id });
    const steps = [
      { id: 'create-project', done: true },
      { id: 'add-contact', done: Boolean(setup?.firstContactAt) },
    ];
    return { projectId: id, steps, completed: steps.every((s) => s.done) };
  }
}
