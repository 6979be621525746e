import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Req } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { FastifyRequest } from 'fastify';
import type { DataSource } from 'typeorm';
import { userView } from '../accounts/accounts.service.js';
import type { UserView } from '../accounts/account.dto.js';
import type { User } from '../accounts/user.entity.js';
import { GATEWAY } from '../consumer.js';
import { CurrentUser, SessionAuth } from '../edge/auth-decorators.js';
import { MembersService } from './members.service.js';
import { requireMembership } from './project-access.js';
import { AddMemberDto, ChangeRoleDto, CreateProjectDto, UpdateProjectDto, type IssuedKeys, type MemberView, type ProjectView } from './project.dto.js';
import { ProjectsService } from './projects.service.js';
import { ProjectSetup } from './setup/project-setup.entity.js';

@SessionAuth()
@Controller('users/@me')
export class MeController {
  constructor(private readonly projects: ProjectsService) {}

  @Get()
  me(@CurrentUser() user: User): UserView {
    return userView(user);
  }

  @Get('projects')
  list(@CurrentUser() user: User): Promise<ProjectView[]> {
    return this.projects.list(user.id);
  }

  /** The response carries the full keys; they are never shown again (only their prefixes). */
  @Post('projects')
  @HttpCode(201)
  create(@CurrentUser() user: User, @Body() body: CreateProjectDto): Promise<ProjectView & IssuedKeys> {
    return this.projects.create(user.id, body.name);
  }

  @Patch('projects/:id')
  update(@CurrentUser() user: User, @Param('id') id: string, @Body() body: UpdateProjectDto): Promise<ProjectView> {
    return this.projects.update(user.id, id, body);
  }

  @Post('projects/:id/regenerate-keys')
  @HttpCode(200)
  regenerateKeys(@CurrentUser() user: User, @Param('id') id: string): Promise<ProjectView & IssuedKeys> {
    return this.projects.regenerateKeys(user.id, id);
  }

  @Post('projects/:id/reset')
  @HttpCode(202)
  async reset(@CurrentUser() user: User, @Param('id') id: string, @Req() req: FastifyRequest): Promise<{ success: true }> {
    await this.projects.reset(user.id, id, String(req.id));
    return { success: true };
  }

  @Delete('projects/:id')
  async delete(@CurrentUser() user: User, @Param('id') id: string, @Req() req: FastifyRequest): Promise<{ success: true }> {
    await this.projects.delete(user.id, id, String(req.id));
    return { success: true };
  }
}

@SessionAuth()
@Controller('projects/:id')
export class ProjectTeamController {
  constructor(
    private readonly members: MembersService,
    @InjectDataSource(GATEWAY) private readonly db: DataSource,
  ) {}

  @Get('members')
  list(@CurrentUser() user: User, @Param('id') id: string): Promise<MemberView[]> {
    return this.members.list(user.id, id);
  }

  @Post('members')
  @HttpCode(201)
  add(@CurrentUser() user: User, @Param('id') id: string, @Body() body: AddMemberDto): Promise<MemberView> {
    return this.members.add(user.id, id, body.email, body.role);
  }

  @Patch('members/:userId')
  changeRole(@CurrentUser() user: User, @Param('id') id: string, @Param('userId') userId: string, @Body() body: ChangeRoleDto): Promise<MemberView> {
    return this.members.changeRole(user.id, id, userId, body.role);
  }

  @Delete('members/:userId')
  async remove(@CurrentUser() user: User, @Param('id') id: string, @Param('userId') userId: string): Promise<{ success: true }> {
    await this.members.remove(user.id, id, userId);
    return { success: true };
  }

  /** Onboarding checklist, from the project's own records and other services' events. */
  @Get('setup-state')
  async setupState(@CurrentUser() user: User, @Param('id') id: string): Promise<{ projectId: string; steps: { id: string; done: boolean }[]; completed: boolean }> {
    await requireMembership(this.db.manager, user.id, id);
    const setup = await this.db.getRepository(ProjectSetup).findOneBy({ projectId: id });
    const steps = [
      { id: 'create-project', done: true },
      { id: 'add-contact', done: Boolean(setup?.firstContactAt) },
    ];
    return { projectId: id, steps, completed: steps.every((s) => s.done) };
  }
}
