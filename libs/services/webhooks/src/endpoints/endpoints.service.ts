import { invalidInput, newId } from '@herald/core';
import { OutboundAllowlist, type CursorPage, type CursorQueryDto } from '@herald/http';
import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { In, type DataSource, type EntityManager } from 'typeorm';
import { WEBHOOKS } from '../consumer.js';
import { WEBHOOKS_ENCRYPTION_KEY, WEBHOOKS_SETTINGS, type WebhooksServiceSettings } from '../webhooks.settings.js';
import { ENDPOINT_DELIVERIES, type EndpointDeliveries } from './endpoint-deliveries.js';
import { newSigningSecret, ROTATION_GRACE_MS, sealSigningSecret } from './endpoint-secrets.js';
import { endpointUrlProblems, type EndpointUrlPolicy } from './endpoint-url.js';
import { endpointView, type WebhookEndpointView, type WebhookEndpointWithSecret } from './endpoint-view.js';
import type { CreateWebhookEndpointDto, UpdateWebhookEndpointDto } from './endpoint.dto.js';
import { Endpoint } from './endpoint.entity.js';
import { MAX_ENDPOINTS_PER_PROJECT, WebhookEndpointErrors } from './endpoint.errors.js';
import { EndpointsStore } from './endpoints.store.js';

/** A project's webhook endpoints: create (with a secret shown once), list, read, change, rotate the secret, delete. */
@Injectable()
export class EndpointsService {
  private readonly urlPolicy: EndpointUrlPolicy;

  constructor(
    @InjectDataSource(WEBHOOKS) private readonly db: DataSource,
    @Inject(WEBHOOKS_SETTINGS) settings: WebhooksServiceSettings,
    @Inject(WEBHOOKS_ENCRYPTION_KEY) private readonly encryptionKey: string,
    @Inject(ENDPOINT_DELIVERIES) private readonly deliveries: EndpointDeliveries,
    private readonly store: EndpointsStore,
  ) {
    this.urlPolicy = { allowHttp: settings.WEBHOOKS_ALLOW_HTTP, allow: new OutboundAllowlist(settings.WEBHOOKS_ALLOW) };
  }

  async create(projectId: string, dto: CreateWebhookEndpointDto): Promise<WebhookEndpointWithSecret> {
    await this.checkUrl(dto.url);
    const secret = newSigningSecret();
    const endpoint = this.db.getRepository(Endpoint).create({
      id: newId('whe'),
      projectId,
      url: dto.url,
      description: dto.description ?? null,
      eventTypes: [...new Set(dto.eventTypes)],
      enabled: dto.enabled ?? true,
      status: 'active',
      failingSince: null,
      secretSealed: sealSigningSecret(secret, this.encryptionKey),
      previousSecretSealed: null,
      previousSecretUntil: null,
    });
    await this.db.transaction(async (m) => {
      await this.store.lockProject(m, projectId);
      if ((await this.store.countOf(m, projectId)) >= MAX_ENDPOINTS_PER_PROJECT) throw WebhookEndpointErrors.limit();
      await m.insert(Endpoint, endpoint);
    });
    return { ...(await this.get(projectId, endpoint.id)), secret };
  }

  /** The project's endpoints, newest first. */
  async list(projectId: string, q: CursorQueryDto): Promise<CursorPage<WebhookEndpointView>> {
    const page = await this.store.page(projectId, q);
    const ids = page.data.map((r) => r.id as string);
    const rows = ids.length ? await this.db.getRepository(Endpoint).findBy({ id: In(ids) }) : [];
    const byId = new Map(rows.map((e) => [e.id, e]));
    return { ...page, data: ids.flatMap((id) => (byId.has(id) ? [endpointView(byId.get(id)!)] : [])) };
  }

  async get(projectId: string, id: string): Promise<WebhookEndpointView> {
    return endpointView(await this.find(projectId, id));
  }

  /** Changes what is given; enabling a disabled endpoint sends its pending deliveries. */
  async update(projectId: string, id: string, dto: UpdateWebhookEndpointDto): Promise<WebhookEndpointView> {
    if (dto.url !== undefined) await this.checkUrl(dto.url);
    const updated = await this.db.transaction(async (m) => {
      const endpoint = await this.lock(m, projectId, id);
      const resumed = dto.enabled === true && !endpoint.enabled;
      if (dto.url !== undefined) endpoint.url = dto.url;
      if (dto.eventTypes !== undefined) endpoint.eventTypes = [...new Set(dto.eventTypes)];
      if (dto.enabled !== undefined) endpoint.enabled = dto.enabled;
      if (dto.description !== undefined) endpoint.description = dto.description;
      const saved = await m.save(Endpoint, endpoint);
      if (resumed) await this.deliveries.resumed(m, endpoint);
      return saved;
    });
    return endpointView(updated);
  }

  /**
   * A new signing secret, shown once; the one it replaces keeps signing beside it (two signatures in
   * `webhook-signature`) for 24 hours, so receivers can switch without failing a delivery.
   */
  async rotateSecret(projectId: string, id: string): Promise<WebhookEndpointWithSecret> {
    const secret = newSigningSecret();
    const updated = await this.db.transaction(async (m) => {
      const endpoint = await this.lock(m, projectId, id);
      endpoint.previousSecretSealed = endpoint.secretSealed;
      endpoint.previousSecretUntil = new Date(Date.now() + ROTATION_GRACE_MS);
      endpoint.secretSealed = sealSigningSecret(secret, this.encryptionKey);
      return m.save(Endpoint, endpoint);
    });
    return { ...endpointView(updated), secret };
  }

  /** Deletes the endpoint, its deliveries and their jobs: nothing more is attempted (an attempt in flight ends as it is). */
  async remove(projectId: string, id: string): Promise<void> {
    await this.db.transaction(async (m) => {
      const endpoint = await this.lock(m, projectId, id);
      await this.deliveries.removed(m, endpoint);
      await m.delete(Endpoint, { id });
    });
  }

  private async checkUrl(url: string): Promise<void> {
    const problems = await endpointUrlProblems(url, this.urlPolicy);
    if (problems.length > 0) throw invalidInput(problems);
  }

  private async find(projectId: string, id: string): Promise<Endpoint> {
    const endpoint = await this.db.getRepository(Endpoint).findOneBy({ projectId, id });
    if (!endpoint) throw WebhookEndpointErrors.notFound(id);
    return endpoint;
  }

  private async lock(m: EntityManager, projectId: string, id: string): Promise<Endpoint> {
    const endpoint = await m.findOne(Endpoint, { where: { projectId, id }, lock: { mode: 'pessimistic_write' } });
    if (!endpoint) throw WebhookEndpointErrors.notFound(id);
    return endpoint;
  }
}
