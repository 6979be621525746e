import { emailDomain } from '@herald/contact-data';
import { DomainError, invalidInput, newId, type FieldProblem } from '@herald/core';
import { parseFilter, toWire, type WireGroup } from '@herald/filters';
import { InjectOutbox, type Outbox } from '@herald/messaging';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { DomainsClient } from '../clients/domains-client.js';
import { SegmentsClient } from '../clients/segments-client.js';
import { SendingClient } from '../clients/sending-client.js';
import { CAMPAIGNS } from '../consumer.js';
import type { CampaignBodyDto, ListCampaignsQueryDto } from './campaign.dto.js';
import { Campaign, CampaignRecipient } from './campaign.entity.js';
import { CampaignErrorCode, CampaignErrors } from './campaign.errors.js';
import { publishCampaignReferences } from './campaign-events.js';
import { assertDeletable, assertEditable } from './campaign-state.js';
import { campaignView, type CampaignView } from './campaign-view.js';

export interface CampaignList {
  campaigns: CampaignView[];
  page: number;
  pageSize: number;
  total: number;
  totalPages: number;
  /** The next page's cursor, null on the last page. */
  cursor: string | null;
}

/** The audience fields of a body, checked for shape: SEGMENT needs segmentId, FILTERED audienceFilter. */
function audienceOf(body: CampaignBodyDto): { segmentId: string | null; filter: WireGroup | null } {
  const problems: FieldProblem[] = [];
  const t = body.audienceType;
  if (t === 'SEGMENT' && !body.segmentId)
    problems.push({
      field: 'segmentId',
      code: 'VALIDATION_ERROR',
      message: 'is required when audienceType is SEGMENT',
    });
  if (t !== 'SEGMENT' && body.segmentId)
    problems.push({
      field: 'segmentId',
      code: 'VALIDATION_ERROR',
      message: 'is only allowed when audienceType is SEGMENT',
    });
  if (t === 'FILTERED' && !body.audienceFilter)
    problems.push({
      field: 'audienceFilter',
      code: 'VALIDATION_ERROR',
      message: 'is required when audienceType is FILTERED',
    });
  if (t !== 'FILTERED' && body.audienceFilter)
    problems.push({
      field: 'audienceFilter',
      code: 'VALIDATION_ERROR',
      message: 'is only allowed when audienceType is FILTERED',
    });
  if (problems.length > 0) throw invalidInput(problems);
  return {
    segmentId: t === 'SEGMENT' ? body.segmentId! : null,
    filter: t === 'FILTERED' ? toWire(parseFilter(body.audienceFilter, 'audienceFilter')) : null,
  };
}

/** Campaigns: create, list, read, replace, delete, duplicate (docs/campaigns.md). */
@Injectable()
export class CampaignsService {
  constructor(
    @InjectDataSource(CAMPAIGNS) private readonly db: DataSource,
    @InjectOutbox(CAMPAIGNS) private readonly outbox: Outbox,
    private readonly domains: DomainsClient,
    private readonly segments: SegmentsClient,
    private readonly sending: SendingClient,
  ) {}

  async create(projectId: string, body: CampaignBodyDto, requestId?: string): Promise<CampaignView> {
    const audience = await this.validate(projectId, body, requestId);
    const saved = await this.db.transaction(async (m) => {
      const c = m.create(Campaign, {
        id: newId('cmp'),
        projectId,
        ...this.content(body, audience),
        status: 'DRAFT',
        scheduledAt: null,
        sendSeq: 0,
        resolveCursor: null,
        resolved: false,
        startedAt: null,
        sentAt: null,
        cancelledAt: null,
      });
      const s = await m.save(c);
      await publishCampaignReferences(this.outbox, m, s, false, requestId);
      return s;
    });
    return campaignView(saved);
  }

  async list(projectId: string, q: ListCampaignsQueryDto): Promise<CampaignList> {
    const pageSize = q.limit;
    const page = q.cursor ? Number(q.cursor) : (q.page ?? 1);
    const where = { projectId, ...(q.status ? { status: q.status } : {}) };
    const [rows, total] = await this.db.getRepository(Campaign).findAndCount({
      where,
      order: { createdAt: 'DESC', id: 'DESC' },
      take: pageSize,
      skip: (page - 1) * pageSize,
    });
    const totalPages = Math.ceil(total / pageSize);
    return {
      campaigns: rows.map(campaignView),
      page,
      pageSize,
      total,
      totalPages,
      cursor: page < totalPages ? String(page + 1) : null,
    };
  }

  async get(projectId: string, id: string): Promise<CampaignView> {
    return campaignView(await this.find(this.db.manager, projectId, id));
  }

  /** PUT: the whole campaign, in DRAFT or SCHEDULED (a scheduled one keeps its time). */
  async replace(projectId: string, id: string, body: CampaignBodyDto, requestId?: string): Promise<CampaignView> {
    assertEditable((await this.find(this.db.manager, projectId, id)).status);
    const audience = await this.validate(projectId, body, requestId);
    const saved = await this.db.transaction(async (m) => {
      const c = await this.find(m, projectId, id, true);
      assertEditable(c.status);
      Object.assign(c, this.content(body, audience));
      const s = await m.save(c);
      await publishCampaignReferences(this.outbox, m, s, false, requestId);
      return s;
    });
    return campaignView(saved);
  }

  async remove(projectId: string, id: string, requestId?: string): Promise<void> {
    await this.db.transaction(async (m) => {
      const c = await this.find(m, projectId, id, true);
      assertDeletable(c.status);
      await m.delete(CampaignRecipient, { campaignId: id });
      await m.delete(Campaign, { projectId, id });
      await publishCampaignReferences(this.outbox, m, c, true, requestId);
    });
  }

  /** A new DRAFT with the same content, from any status (its audience is not re-checked: it was). */
  async duplicate(projectId: string, id: string, requestId?: string): Promise<CampaignView> {
    const saved = await this.db.transaction(async (m) => {
      const src = await this.find(m, projectId, id);
      const c = m.create(Campaign, {
        id: newId('cmp'),
        projectId,
        name: `${src.name.slice(0, 193)} (copy)`,
        description: src.description,
        subject: src.subject,
        body: src.body,
        from: src.from,
        fromName: src.fromName,
        replyTo: src.replyTo,
        audienceType: src.audienceType,
        segmentId: src.segmentId,
        audienceFilter: src.audienceFilter,
        templateId: src.templateId,
        status: 'DRAFT',
        scheduledAt: null,
        sendSeq: 0,
        resolveCursor: null,
        resolved: false,
        startedAt: null,
        sentAt: null,
        cancelledAt: null,
      });
      const s = await m.save(c);
      await publishCampaignReferences(this.outbox, m, s, false, requestId);
      return s;
    });
    return campaignView(saved);
  }

  async find(m: EntityManager, projectId: string, id: string, lock = false): Promise<Campaign> {
    const c = await m.findOne(Campaign, {
      where: { projectId, id },
      ...(lock ? { lock: { mode: 'pessimistic_write' as const } } : {}),
    });
    if (!c) throw CampaignErrors.notFound(id);
    return c;
  }

  private content(body: CampaignBodyDto, audience: { segmentId: string | null; filter: WireGroup | null }) {
    return {
      name: body.name,
      description: body.description ?? null,
      subject: body.subject,
      body: body.body,
      from: body.from,
      fromName: body.fromName ?? null,
      replyTo: body.replyTo ?? null,
      audienceType: body.audienceType,
      segmentId: audience.segmentId,
      audienceFilter: audience.filter,
      templateId: body.templateId ?? null,
    };
  }

  /**
   * The checks that need other services, all reported together: `from` on a verified domain of the
   * project (domains), the segment or filter of the audience (segments: the segment is the project's,
   * the filter names known fields and segments), the template one of the project's (sending). Each
   * owner answers for the caller's project only, so another project's id is refused exactly as an
   * unknown one: nothing tells that it exists.
   */
  private async validate(
    projectId: string,
    body: CampaignBodyDto,
    requestId?: string,
  ): Promise<{ segmentId: string | null; filter: WireGroup | null }> {
    const audience = audienceOf(body);
    const domain = emailDomain(body.from);
    const [fromCheck, audienceCheck, templateCheck] = await Promise.allSettled([
      domain ? this.domains.verified(projectId, domain, requestId) : Promise.resolve(false),
      body.audienceType === 'ALL'
        ? Promise.resolve(null)
        : this.segments.check(
            projectId,
            {
              audienceType: body.audienceType,
              ...(audience.segmentId ? { segmentId: audience.segmentId } : {}),
              ...(audience.filter ? { filter: audience.filter } : {}),
            },
            requestId,
          ),
      body.templateId ? this.sending.template(projectId, body.templateId, requestId) : Promise.resolve(),
    ]);
    const problems: FieldProblem[] = [];
    if (fromCheck.status === 'rejected') throw fromCheck.reason;
    if (!fromCheck.value)
      problems.push({
        field: 'from',
        code: CampaignErrorCode.DomainNotVerified,
        message: `${domain ?? body.from} is not a verified domain of this project: add it with POST /domains and publish its DNS records`,
      });
    if (audienceCheck.status === 'rejected') {
      const err: unknown = audienceCheck.reason;
      if (!(err instanceof DomainError) || err.kind !== 'invalid') throw err;
      problems.push(...(err.details.errors ?? []));
    }
    if (templateCheck.status === 'rejected') {
      const err: unknown = templateCheck.reason;
      if (!(err instanceof DomainError) || err.kind !== 'not_found') throw err;
      problems.push({
        field: 'templateId',
        code: CampaignErrorCode.TemplateNotFound,
        message: 'must be a template of this project',
      });
    }
    if (problems.length > 0) throw invalidInput(problems);
    return audience;
  }
}
