import type { DomainError } from '@herald/core';
import type { TemplateRenderPool } from '@herald/templating';
import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { ContactsClient, SendingClient } from '../clients/internal-clients.js';
import { WORKFLOWS } from '../consumer.js';
import type { SimulateDto } from '../definitions/workflow.dto.js';
import { WorkflowErrors } from '../definitions/workflow.errors.js';
import { WorkflowStore } from '../definitions/workflow-store.js';
import { SeenKeysStore } from '../executions/seen-keys.store.js';
import { WORKFLOWS_RENDER_POOL } from '../render-threads.provider.js';
import { simulate, type SimContact, type SimulationResult } from './simulator.js';

const STANDARD_FIELDS = [
  { field: 'email', type: 'string' },
  { field: 'subscribed', type: 'boolean' },
  { field: 'createdAt', type: 'date' },
  { field: 'updatedAt', type: 'date' },
];

/** The dry run (POST /workflows/:id/simulate) and the fields a CONDITION can use (GET /workflows/fields). */
@Injectable()
export class SimulateService {
  constructor(
    @InjectDataSource(WORKFLOWS) private readonly db: DataSource,
    private readonly store: WorkflowStore,
    private readonly seenKeys: SeenKeysStore,
    private readonly contacts: ContactsClient,
    private readonly sending: SendingClient,
    @Inject(WORKFLOWS_RENDER_POOL) private readonly renderer: TemplateRenderPool,
  ) {}

  async simulate(
    projectId: string,
    id: string,
    body: SimulateDto,
  ): Promise<SimulationResult & { workflowId: string; version: number }> {
    const w = await this.store.find(this.db.manager, projectId, id);
    const graph = await this.store.graph(this.db.manager, id);
    const start = body.at ? new Date(body.at) : new Date();
    if (Number.isNaN(start.getTime())) throw WorkflowErrors.field('at', 'at must be an ISO 8601 instant');
    let contact: SimContact;
    if (body.contactId) {
      const c = await this.contacts.get(projectId, body.contactId);
      contact = {
        id: c.id,
        email: c.email,
        subscribed: c.subscribed,
        data: c.data ?? {},
        createdAt: new Date(c.createdAt),
        updatedAt: new Date(c.updatedAt),
      };
    } else if (body.contact && typeof body.contact.email === 'string') {
      contact = {
        id: null,
        email: body.contact.email.trim().toLowerCase(),
        subscribed: body.contact.subscribed ?? true,
        data: body.contact.data ?? {},
        createdAt: start,
        updatedAt: start,
      };
    } else throw WorkflowErrors.field('contactId', 'give contactId, or contact with an email');
    const templates = new Map<string, { subject: string; type: 'marketing' | 'transactional' }>();
    for (const s of graph.steps) {
      const tid = s.type === 'SEND_EMAIL' ? (s.config.templateId as string) : undefined;
      if (!tid || templates.has(tid)) continue;
      try {
        const t = await this.sending.template(projectId, tid);
        templates.set(tid, { subject: t.subject, type: t.type });
      } catch (err) {
        if ((err as DomainError).kind !== 'not_found') throw err;
      }
    }
    const result = await simulate(
      {
        graph,
        workflowName: w.name,
        contact,
        event: { name: body.event?.name ?? w.eventName ?? '', data: body.event?.data ?? {} },
        context: body.context ?? {},
        start,
        templates,
      },
      this.renderer,
    );
    return { workflowId: w.id, version: w.graphVersion, ...result };
  }

  async fields(projectId: string) {
    const rows = await this.seenKeys.list(this.db.manager, projectId);
    const events: Record<string, { field: string; type: string }[]> = {};
    for (const r of rows.filter((r) => r.scope.startsWith('event:'))) {
      const name = r.scope.slice('event:'.length);
      (events[name] ??= []).push({ field: `event.${r.key}`, type: r.type });
    }
    return {
      contact: [
        ...STANDARD_FIELDS,
        ...rows.filter((r) => r.scope === 'contact').map((r) => ({ field: `data.${r.key}`, type: r.type })),
      ],
      events,
      context: [{ field: 'context.<key>', type: 'any' }],
    };
  }
}
