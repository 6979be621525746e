import type { Principal } from '@herald/contracts';
import { forbidden } from '@herald/http';
import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { RequestWithPrincipal } from './principal.guard.js';

/** The verified principal of the request. */
export const CurrentPrincipal = createParamDecorator((_: unknown, ctx: ExecutionContext): Principal => {
  const principal = ctx.switchToHttp().getRequest<RequestWithPrincipal>().principal;
  if (!principal) throw forbidden('No principal on this request');
  return principal;
});

/** The project every project-scoped route works on, derived from the key (or the chosen project). */
export const ProjectId = createParamDecorator((_: unknown, ctx: ExecutionContext): string => {
  const principal = ctx.switchToHttp().getRequest<RequestWithPrincipal>().principal;
  const projectId = principal?.projectId;
  if (!projectId) throw forbidden('This route needs a project: use a project API key or name the project');
  return projectId;
});

/**
 * Whether the request was made with a test key (`sk_test_…`, `pk_test_…`; docs/test-mode.md): the
 * routes that behave differently in test mode (`/v1/send`, `/v1/send/batch`) read it.
 */
export const TestMode = createParamDecorator((_: unknown, ctx: ExecutionContext): boolean => {
  const principal = ctx.switchToHttp().getRequest<RequestWithPrincipal>().principal;
  return principal?.kind === 'api-key' && principal.testMode === true;
});
