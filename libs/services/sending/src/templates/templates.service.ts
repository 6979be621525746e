import { newId } from '@herald/core';
import { keysetPage, notFound, validationFailed, type CursorPage, type FieldError } from '@herald/http';
import { tableName } from '@herald/persistence';
import { validateTemplate } from '@herald/templating';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { SENDING } from '../consumer.js';
import { SenderDomains } from '../senders/sender-domains.js';
import type { CreateTemplateDto, ListTemplatesQueryDto, UpdateTemplateDto } from './template.dto.js';
import { Template } from './template.entity.js';

export interface TemplateView {
  id: string;
  name: string;
  subject: string;
  body: string;
  from: string | null;
  fromName: string | null;
  replyTo: string | null;
  type: 'marketing' | 'transactional';
  createdAt: string;
  updatedAt: string;
}

export interface TemplateUsage {
  campaigns: { id: string; name: string }[];
  workflows: { id: string; name: string; stepId?: string }[];
}

const view = (t: Template): TemplateView => ({
  id: t.id,
  name: t.name,
  subject: t.subject,
  body: t.body,
  from: t.from,
  fromName: t.fromName,
  replyTo: t.replyTo,
  type: t.type,
  createdAt: new Date(t.createdAt).toISOString(),
  updatedAt: new Date(t.updatedAt).toISOString(),
});

/** Templates: checked on save (Liquid syntax with line and column; `from` on a verified domain). */
@Injectable()
export class TemplatesService {
  constructor(
    @InjectDataSource(SENDING) private readonly db: DataSource,
    private readonly senders: SenderDomains,
  ) {}

  async create(projectId: string, dto: CreateTemplateDto): Promise<TemplateView> {
    await this.check(projectId, dto);
    const template = this.db.getRepository(Template).create({
      id: newId('tpl'),
      projectId,
      name: dto.name,
      subject: dto.subject,
      body: dto.body,
      from: dto.from?.toLowerCase() ?? null,
      fromName: dto.fromName ?? null,
      replyTo: dto.replyTo?.toLowerCase() ?? null,
      type: dto.type ?? 'transactional',
    });
    return view(await this.db.getRepository(Template).save(template));
  }

  async list(projectId: string, q: ListTemplatesQueryDto): Promise<CursorPage<TemplateView>> {
    const filters = ['project_id = $1'];
    const params: unknown[] = [projectId];
    if (q.type) {
      params.push(q.type);
      filters.push(`type = $${params.length}`);
    }
    const page = await keysetPage(this.db, q, { table: tableName(this.db, Template), columns: '*', filters, params });
    return { ...page, data: page.data.map((r) => view(this.db.getRepository(Template).create(fromRow(r)))) };
  }

  async get(projectId: string, id: string): Promise<TemplateView> {
    return view(await this.find(projectId, id));
  }

  /** The stored template (for /v1/send); 404 when it is not the project's. */
  async find(projectId: string, id: string): Promise<Template> {
    const template = await this.db.getRepository(Template).findOneBy({ projectId, id });
    if (!template) throw notFound('Template', id);
    return template;
  }

  async update(projectId: string, id: string, dto: UpdateTemplateDto): Promise<TemplateView> {
    const template = await this.find(projectId, id);
    await this.check(projectId, dto);
    if (dto.name !== undefined) template.name = dto.name;
    if (dto.subject !== undefined) template.subject = dto.subject;
    if (dto.body !== undefined) template.body = dto.body;
    if (dto.from !== undefined) template.from = dto.from?.toLowerCase() ?? null;
    if (dto.fromName !== undefined) template.fromName = dto.fromName;
    if (dto.replyTo !== undefined) template.replyTo = dto.replyTo?.toLowerCase() ?? null;
    if (dto.type !== undefined) template.type = dto.type;
    return view(await this.db.getRepository(Template).save(template));
  }

  async delete(projectId: string, id: string): Promise<void> {
    const result = await this.db.getRepository(Template).delete({ projectId, id });
    if (!result.affected) throw notFound('Template', id);
  }

  async duplicate(projectId: string, id: string): Promise<{ id: string }> {
    const source = await this.find(projectId, id);
    const copy = this.db.getRepository(Template).create({ ...source, id: newId('tpl'), name: `${source.name} (copy)`.slice(0, 200) });
    delete (copy as Partial<Template>).createdAt;
    delete (copy as Partial<Template>).updatedAt;
    await this.db.getRepository(Template).save(copy);
    return { id: copy.id };
  }

  /**
   * Campaigns and workflow steps that reference the template. They live in the campaigns and
   * workflows services, which hold no resources yet; their answer joins here when they do (the
   * same query path as the contacts service's field usage).
   */
  async usage(projectId: string, id: string): Promise<TemplateUsage> {
    await this.find(projectId, id);
    return { campaigns: [], workflows: [] };
  }

  private async check(projectId: string, dto: Partial<CreateTemplateDto>): Promise<void> {
    const errors: FieldError[] = [];
    for (const field of ['subject', 'body'] as const) {
      const source = dto[field];
      if (typeof source !== 'string') continue;
      for (const problem of validateTemplate(source)) {
        errors.push({ field, message: `line ${problem.line}, column ${problem.column}: ${problem.message}`, code: 'invalid_template' });
      }
    }
    if (errors.length > 0) throw validationFailed(errors, 'The template has syntax errors');
    if (dto.from) await this.senders.assertVerified(projectId, dto.from, 'from');
  }
}

const fromRow = (r: Record<string, unknown>): Partial<Template> => ({
  id: r.id as string,
  projectId: r.project_id as string,
  name: r.name as string,
  subject: r.subject as string,
  body: r.body as string,
  from: r.from_email as string | null,
  fromName: r.from_name as string | null,
  replyTo: r.reply_to as string | null,
  type: r.type as 'marketing' | 'transactional',
  createdAt: r.created_at as Date,
  updatedAt: r.updated_at as Date,
});
