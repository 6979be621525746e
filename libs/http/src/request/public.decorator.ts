import { SetMetadata } from '@nestjs/common';

export const IS_PUBLIC = 'herald:is-public';

/** Opts a route out of the global (deny-by-default) authentication guard. */
export const Public = (): MethodDecorator & ClassDecorator => SetMetadata(IS_PUBLIC, true);

export const IS_INTERNAL = 'herald:is-internal';

/**
 * A service-to-service route (`/internal/...`): callable only with a principal another Herald
 * service signed (`kind: 'service'`), never through the gateway (it has no public route to it).
 */
export const Internal = (): MethodDecorator & ClassDecorator => SetMetadata(IS_INTERNAL, true);
