/** What the composition roots need to know about a service. */
export interface ServiceDefinition {
  /** Service name: also its schema, its Kafka consumer group suffix and its consumer name. */
  name: string;
  /** The Nest module that is the service (controllers, handlers, providers). */
  module: unknown;
  /** Config class validated at boot in distributed mode (default: ServiceConfig). */
  config?: new () => object;
  /**
   * The service authenticates public traffic itself (the gateway): a process hosting it installs
   * the gateway's guard instead of the internal-principal guard.
   */
  edge?: boolean;
  /** A module added only when the service runs as its own process (e.g. the gateway's proxy). */
  distributedModule?: unknown;
  /** Port in distributed mode when PORT is not set. */
  defaultPort: number;
  /** Entities and committed migrations of its schema. */
  schema: {
    service: string;
    // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
    entities: Function[];
    // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
    migrations: Function[];
  };
}
