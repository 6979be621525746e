import { conflictError, invalidInput, newId, notFoundError, type FieldProblem } from '@herald/core';
import { keysetPage, type CursorPage } from '@herald/http';
import { InjectReferences, type ReferenceDirectory } from '@herald/messaging';
import { tableName } from '@herald/persistence';
import { validateTemplate, type BodyFormat } from '@herald/templating';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { In, type DataSource } from 'typeorm';
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
  format: BodyFormat;
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
  format: t.format,
  createdAt: new Date(t.createdAt).toISOString(),
  updatedAt: new Date(t.updatedAt).toISOString(),
});

/**
 * Templates: checked on save (Liquid syntax with line and column, of an HTML or a Markdown body
 * alike; `from` on a verified domain).
 */
@Injectable()
export class TemplatesService {
  constructor(
    @InjectDataSource(SENDING) private readonly db: DataSource,
    private readonly senders: SenderDomains,
    @InjectReferences(SENDING) private readonly references: ReferenceDirectory,
  ) {}

  async create(projectId: string, dto: CreateTemplateDto): Promise<TemplateView> {
    await this.check(projectId, dto, dto.format ?? 'html');
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
      format: dto.format ?? 'html',
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

  /** The stored template (for /v1/send); TEMPLATE_NOT_FOUND when it is not the project's. */
  async find(projectId: string, id: string): Promise<Template> {
    const template = await this.db.getRepository(Template).findOneBy({ projectId, id });
    if (!template) throw notFoundError('Template', id);
    return template;
  }

  /** The project's templates among `ids`, in one query (a /v1/send/batch's); unknown ids are left out. */
  async findMany(projectId: string, ids: string[]): Promise<Template[]> {
    if (ids.length === 0) return [];
    return this.db.getRepository(Template).findBy({ projectId, id: In(ids) });
  }

  async update(projectId: string, id: string, dto: UpdateTemplateDto): Promise<TemplateView> {
    const template = await this.find(projectId, id);
    // a body turned Markdown is checked as Markdown (its size limit), whether or not it changes too
    const format = dto.format ?? template.format;
    await this.check(projectId, format !== template.format ? { body: template.body, ...dto } : dto, format);
    if (dto.name !== undefined) template.name = dto.name;
    if (dto.subject !== undefined) template.subject = dto.subject;
    if (dto.body !== undefined) template.body = dto.body;
    if (dto.from !== undefined) template.from = dto.from?.toLowerCase() ?? null;
    if (dto.fromName !== undefined) template.fromName = dto.fromName;
    if (dto.replyTo !== undefined) template.replyTo = dto.replyTo?.toLowerCase() ?? null;
    if (dto.type !== undefined) template.type = dto.type;
    if (dto.format !== undefined) template.format = dto.format;
    return view(await this.db.getRepository(Template).save(template));
  }

  /**
   * 409 `TEMPLATE_IN_USE` while a SCHEDULED or SENDING campaign or an enabled workflow uses it (their
   * references say `active`).
   */
  async delete(projectId: string, id: string): Promise<void> {
    const active = await this.references.activeUsers(projectId, 'template', id);
    if (active.length > 0)
      throw conflictError(
        'TEMPLATE_IN_USE',
        `The template is in use by ${active.map((c) => `${c.resourceKind} ${c.name} (${c.id})`).join(', ')}`,
        'Cancel those campaigns (or wait until they are sent) and disable those workflows first.',
      );
    const result = await this.db.getRepository(Template).delete({ projectId, id });
    if (!result.affected) throw notFoundError('Template', id);
  }

  async duplicate(projectId: string, id: string): Promise<{ id: string }> {
    const source = await this.find(projectId, id);
    const copy = this.db
      .getRepository(Template)
      .create({ ...source, id: newId('tpl'), name: `${source.name} (copy)`.slice(0, 200) });
    delete (copy as Partial<Template>).createdAt;
    delete (copy as Partial<Template>).updatedAt;
    await this.db.getRepository(Template).save(copy);
    return { id: copy.id };
  }

  /**
   * Campaigns and workflow steps that reference the template, from the references the campaigns and
   * workflows services publish (`resource.references.changed`, kept by ReferencesModule).
   */
  async usage(projectId: string, id: string): Promise<TemplateUsage> {
    await this.find(projectId, id);
    const usage = await this.references.usage(projectId, 'template', id);
    return {
      campaigns: usage.campaigns.map(({ id, name }) => ({ id, name })),
      workflows: usage.workflows.map(({ id, name, at }) => ({ id, name, ...(at ? { stepId: at } : {}) })),
    };
  }

  /** The Liquid of the subject and of the body (in `format`: a Markdown body has its own size limit). */
  private async check(projectId: string, dto: Partial<CreateTemplateDto>, format: BodyFormat): Promise<void> {
    const errors: FieldProblem[] = [];
    for (const field of ['subject', 'body'] as const) {
      const source = dto[field];
      if (typeof source !== 'string') continue;
      for (const problem of validateTemplate(source, field === 'body' ? { format } : {})) {
        errors.push({
          field,
          message: `line ${problem.line}, column ${problem.column}: ${problem.message}`,
          code: 'invalid_template',
        });
      }
    }
    if (errors.length > 0) throw invalidInput(errors, 'The template has syntax errors');
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
  format: r.format as BodyFormat,
  createdAt: r.created_at as Date,
  updatedAt: r.updated_at as Date,
});
