export * from './job.entity.js';
export * from './job-queue.js';
export * from './jobs.module.js';
export * from './jobs-command.js';
export type { DeadLettered } from './job.store.js';
