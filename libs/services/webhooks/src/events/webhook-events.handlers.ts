import { WEBHOOK_EVENT_TYPES, type EventEnvelope } from '@herald/contracts';
import { OnEventBatch, type EventBatchContext } from '@herald/messaging';
import { Controller } from '@nestjs/common';
import { Ctx, Payload } from '@nestjs/microservices';
import { WEBHOOKS } from '../consumer.js';
import { WebhookFanOut } from './webhook-fan-out.js';

/**
 * The service's consumer: one batch handler per webhook event type (WEBHOOK_EVENTS in
 * @herald/contracts, so a type added there is consumed without a line here), each run of events of a
 * topic going to the fan-out in the transaction that records them in the inbox. Runs keep the
 * delivered order (no `gather`): one contact's events are written, and so attempted, in order.
 */
@Controller()
export class WebhookEventHandlers {
  constructor(private readonly fanOut: WebhookFanOut) {}

  apply(events: EventEnvelope[], ctx: EventBatchContext): Promise<void> {
    return this.fanOut.apply(ctx.manager, events);
  }
}

/** The handler method of a topic: `onEmailDelivered` for `email.delivered`. */
export const handlerName = (type: string): string =>
  `on${type.replace(/(^|[._-])([a-z])/g, (_, __: string, c: string) => c.toUpperCase())}`;

for (const type of WEBHOOK_EVENT_TYPES) {
  const name = handlerName(type);
  Object.defineProperty(WebhookEventHandlers.prototype, name, {
    value: function (this: WebhookEventHandlers, events: EventEnvelope[], ctx: EventBatchContext) {
      return this.apply(events, ctx);
    },
    writable: true,
    configurable: true,
  });
  // as `@Payload() events, @Ctx() ctx` would declare them on a written method
  Payload()(WebhookEventHandlers.prototype, name, 0);
  Ctx()(WebhookEventHandlers.prototype, name, 1);
  OnEventBatch(WEBHOOKS, type)(
    WebhookEventHandlers.prototype,
    name,
    Object.getOwnPropertyDescriptor(WebhookEventHandlers.prototype, name)!,
  );
}
