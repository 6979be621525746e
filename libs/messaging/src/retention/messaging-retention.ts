import type { RetentionSettings } from '@herald/core';
import type { RetentionTask } from '@herald/persistence';
import type { DataSource } from 'typeorm';
import { MessagingRetentionStore } from './messaging-retention.store.js';

const store = new MessagingRetentionStore();

/**
 * What a service's messaging deletes past retention: its consumers' inbox entries after
 * `inboxMs` (which must outlive every redelivery: docs/operations.md, Retention) and its dead
 * letters after `deadLettersMs`. (Published outbox rows are deleted by the outbox relay.)
 */
export function messagingRetentionTasks(db: DataSource, retention: RetentionSettings): RetentionTask[] {
  return [
    { table: 'inbox', pruneBatch: (limit) => store.pruneInbox(db, retention.inboxMs, limit) },
    { table: 'dead_letters', pruneBatch: (limit) => store.pruneDeadLetters(db, retention.deadLettersMs, limit) },
  ];
}
