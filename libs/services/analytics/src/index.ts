export * from './analytics.module.js';
export * from './consumer.js';
export { ActivityProjector } from './projection/activity-projector.js';
export { toActivity, type ActivityRow } from './projection/activity-item.js';
