import { DeadLetter } from './dead-letter.entity.js';
import { InboxEntry } from './inbox-entry.entity.js';
import { OutboxMessage } from './outbox-message.entity.js';

export { DeadLetter, InboxEntry, OutboxMessage };

/** Tables every service schema carries for messaging; add them to the service's entities. */
export const messagingEntities = [OutboxMessage, InboxEntry, DeadLetter];
