import type { ServiceName } from './service-directory.js';

// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
type EntityClass = Function;

/**
 * What a service keeps per project, and so what it forgets on `project.reset` and `project.deleted`.
 * The runtime mounts one consumer per hosted service for both topics (`ProjectDataModule` in
 * @herald/messaging) that runs the hook, then deletes the project's rows of each table, in one
 * transaction with the inbox row. `test/architecture/project-data.spec.ts` fails when a table with a
 * `project_id` column in the service's schema is not declared here.
 */
export interface ProjectData {
  /** Entities whose tables have `project_id`, deleted in this order on both topics. */
  tables: EntityClass[];
  /** Deleted on `project.deleted` only: what a reset keeps (the gateway's keys and members). */
  keptOnReset?: EntityClass[];
  /**
   * A provider of the service's module run first, in the same transaction: the work beyond deleting
   * rows (domains publishes `domain.unverified` and cancels its checks). Implements
   * `ProjectDataHook` from @herald/messaging.
   */
  hook?: abstract new (...args: never[]) => unknown;
}

/** What the composition roots need to know about a service. */
export interface ServiceDefinition {
  /**
   * Service name, one of the one list (`SERVICES` in service-directory.ts, which also gives its
   * default port and routes): also its schema, its Kafka consumer group suffix and its consumer name.
   */
  name: ServiceName;
  /** The Nest module that is the service (controllers, handlers, providers). */
  module: unknown;
  /** Config class validated at boot in distributed mode (default: ServiceConfig). */
  config?: new () => object;
  /** A module added only when the service runs as its own process (e.g. the gateway's proxy). */
  distributedModule?: unknown;
  /** Entities and committed migrations of its schema. */
  schema: {
    service: string;
    entities: EntityClass[];
    migrations: EntityClass[];
  };
  /** Its project-owned tables, cleaned up on `project.reset` and `project.deleted`. */
  projectData: ProjectData;
}
