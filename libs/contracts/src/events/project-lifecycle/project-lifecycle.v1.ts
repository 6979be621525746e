import { IsOptional, IsString } from 'class-validator';
import { defineEvent } from '../../event-contract.js';
import { Topics } from '../../topics.js';

/** Payload of `project.reset` (wipe the project's data) and `project.deleted`. */
export class ProjectLifecycleV1 {
  @IsOptional() @IsString() requestedBy?: string;
}

export const ProjectReset = defineEvent({
  topic: Topics.ProjectReset,
  version: 1,
  payload: ProjectLifecycleV1,
  key: (_p, projectId) => projectId,
});

export const ProjectDeleted = defineEvent({
  topic: Topics.ProjectDeleted,
  version: 1,
  payload: ProjectLifecycleV1,
  key: (_p, projectId) => projectId,
});
