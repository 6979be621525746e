import { webhookPayload, type EventEnvelope } from '@herald/contracts';
import { newId } from '@herald/core';
import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { DeliveriesStore, type NewDelivery } from '../deliveries/deliveries.store.js';
import { DeliveryLanes } from '../deliveries/delivery-lanes.js';
import { laneOf } from '../deliveries/lane-key.js';
import { EndpointsStore } from '../endpoints/endpoints.store.js';
import { WEBHOOKS_SETTINGS, type WebhooksServiceSettings } from '../webhooks.settings.js';

/**
 * What each consumed event becomes: a delivery to every enabled endpoint of its project subscribed to
 * its type, written in the transaction that records the event in the inbox (so an event is never lost
 * between the bus and its deliveries, and a redelivered one adds nothing: one delivery per endpoint
 * and event), each in the lane of the event's key, whose chain is woken in that transaction too.
 */
@Injectable()
export class WebhookFanOut {
  constructor(
    @Inject(WEBHOOKS_SETTINGS) private readonly settings: WebhooksServiceSettings,
    private readonly endpoints: EndpointsStore,
    private readonly deliveries: DeliveriesStore,
    private readonly lanes: DeliveryLanes,
  ) {}

  async apply(m: EntityManager, events: EventEnvelope[]): Promise<void> {
    if (events.length === 0) return;
    const subscribers = await this.endpoints.subscribers(
      m,
      [...new Set(events.map((e) => e.projectId))],
      [...new Set(events.map((e) => e.type))],
    );
    if (subscribers.length === 0) return;
    const rows: NewDelivery[] = [];
    for (const event of events) {
      const body = JSON.stringify(webhookPayload(event));
      for (const s of subscribers)
        if (s.projectId === event.projectId && s.eventTypes.includes(event.type))
          rows.push({
            id: newId('whd'),
            endpointId: s.id,
            projectId: s.projectId,
            eventId: event.eventId,
            eventType: event.type,
            body,
            lane: laneOf(event.key, this.settings.WEBHOOKS_ENDPOINT_CONCURRENCY),
          });
    }
    const written = await this.deliveries.insertMany(m, rows);
    await this.lanes.wake(
      m,
      written.map((d) => ({ endpointId: d.endpointId, projectId: d.projectId, lane: d.lane })),
    );
  }
}
