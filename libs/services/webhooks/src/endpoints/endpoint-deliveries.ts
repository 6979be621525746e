import type { EntityManager } from 'typeorm';

/**
 * What an endpoint's change means for its deliveries, told in the transaction of the change. The
 * deliveries feature implements it (the module binds it), so endpoints need not know how deliveries
 * are run.
 */
export interface EndpointDeliveries {
  /** The endpoint was enabled again: its pending deliveries go out. */
  resumed(m: EntityManager, endpoint: { id: string; projectId: string }): Promise<void>;
  /** The endpoint is being deleted: its deliveries, lanes and their jobs go with it. */
  removed(m: EntityManager, endpoint: { id: string; projectId: string }): Promise<void>;
}

export const ENDPOINT_DELIVERIES = Symbol('ENDPOINT_DELIVERIES');
