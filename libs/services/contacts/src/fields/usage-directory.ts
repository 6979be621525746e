import { Injectable } from '@nestjs/common';

export interface UsageRef {
  id: string;
  name: string;
}

/** Where a field or an event name is referenced. */
export interface Usage {
  segments: UsageRef[];
  campaigns: UsageRef[];
  workflows: UsageRef[];
}

/**
 * The query path for "where is this used?": each service that stores filters or triggers
 * (segments, campaigns, workflows) registers a source that answers for its own resources — over
 * internal HTTP in distributed mode, in-process in standalone. No such service holds resources
 * yet, so no source is registered and the answer is that nothing references the field or event.
 */
export interface UsageSource {
  kind: keyof Usage;
  field(projectId: string, field: string): Promise<UsageRef[]>;
  event(projectId: string, eventName: string): Promise<UsageRef[]>;
}

@Injectable()
export class UsageDirectory {
  private readonly sources: UsageSource[] = [];

  register(source: UsageSource): void {
    this.sources.push(source);
  }

  field(projectId: string, field: string): Promise<Usage> {
    return this.collect((s) => s.field(projectId, field));
  }

  event(projectId: string, eventName: string): Promise<Usage> {
    return this.collect((s) => s.event(projectId, eventName));
  }

  private async collect(ask: (s: UsageSource) => Promise<UsageRef[]>): Promise<Usage> {
    const usage: Usage = { segments: [], campaigns: [], workflows: [] };
    for (const source of this.sources) usage[source.kind].push(...(await ask(source)));
    return usage;
  }
}
