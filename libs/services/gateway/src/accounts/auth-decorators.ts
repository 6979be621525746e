import { createParamDecorator, SetMetadata, type ExecutionContext } from '@nestjs/common';
import type { User } from '../accounts/user.entity.js';

export const SESSION_AUTH = 'herald:session-auth';

/** The route needs a dashboard session (cookie); API keys are refused. */
export const SessionAuth = (): MethodDecorator & ClassDecorator => SetMetadata(SESSION_AUTH, true);

export type RequestWithSession = { sessionUser?: User };

/** The logged-in user of a `@SessionAuth()` route. */
export const CurrentUser = createParamDecorator((_: unknown, ctx: ExecutionContext): User => {
  const user = ctx.switchToHttp().getRequest<RequestWithSession>().sessionUser;
  if (!user) throw new Error('CurrentUser used on a route without @SessionAuth()');
  return user;
});
