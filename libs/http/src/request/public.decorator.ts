import { SetMetadata } from '@nestjs/common';

export const IS_PUBLIC = 'herald:is-public';

/** Opts a route out of the global (deny-by-default) authentication guard. */
export const Public = (): MethodDecorator & ClassDecorator => SetMetadata(IS_PUBLIC, true);
