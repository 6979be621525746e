import { createLogger, DomainError, HERALD_RUNTIME, type HeraldRuntime } from '@herald/core';
import { intakeItemOf } from '@herald/internal-contracts';
import type { TemplateRenderPool } from '@herald/templating';
import { createHmac } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import {
  ContactsClient,
  SendingClient,
  type IntakeItem,
  type IntakeResult,
  type RemoteContact,
} from '../clients/internal-clients.js';
import { evaluateConditionStep, parseConditionStep } from '../definitions/condition-step.js';
import type { GraphStep } from '../definitions/graph.js';
import { webhookBackoffMs } from '../definitions/step-config.js';
import { ContactFactsStore } from '../executions/contact-facts.store.js';
import type { WorkflowExecution, WorkflowStepRun } from '../executions/execution.entity.js';
import { WORKFLOWS_RENDER_POOL } from '../render-threads.provider.js';
import { WORKFLOWS_SETTINGS, type WorkflowsSettings } from '../workflows.settings.js';
import { stepSpan } from './step-spans.js';
import { WebhookCaller } from './webhook/webhook-caller.js';

const log = createLogger('workflows.runtime');

/** What running a step decided. */
export type StepOutcome =
  | {
      kind: 'next';
      branch: string;
      outcome: string;
      detail?: Record<string, unknown>;
      context?: Record<string, unknown>;
    }
  | { kind: 'retry'; error: string; delayMs: number; detail?: Record<string, unknown> }
  | { kind: 'fail'; error: string; detail?: Record<string, unknown> }
  | { kind: 'exit'; reason: string | null };

export const WEBHOOK_MAX_ATTEMPTS = 5;
const TRANSIENT_RETRY_MS = 5_000;

export interface StepTask {
  run: WorkflowStepRun;
  execution: WorkflowExecution;
  step: GraphStep;
  workflowName: string;
}

/** The variables a step's templates see: the contact, the triggering event, the execution context, the workflow and execution. */
export function templateVariables(t: StepTask, contact?: RemoteContact): Record<string, unknown> {
  return {
    contact: contact ?? { id: t.execution.contactId, email: t.execution.email },
    ...(contact?.data ?? {}),
    email: t.execution.email,
    event: t.execution.event,
    context: t.execution.context,
    workflow: { id: t.execution.workflowId, name: t.workflowName },
    execution: { id: t.execution.id },
  };
}

/** The contact as sending's intake takes it (rendered with, tracked under, its subscription asked). */
const snapshotOf = (c: RemoteContact): NonNullable<IntakeItem['contact']> => ({
  id: c.id,
  email: c.email,
  subscribed: c.subscribed,
  data: c.data ?? {},
  createdAt: c.createdAt,
  updatedAt: c.updatedAt,
});

/**
 * The effects of each step type; I/O goes through the contacts and sending clients and the webhook
 * caller, Liquid through the render pool (off the event loop with RENDER_THREADS > 0).
 */
@Injectable()
export class StepEffects {
  private readonly webhooks: WebhookCaller;
  private readonly webhookRetryBaseMs: number | undefined;
  private readonly templateTypes = new Map<string, { type: 'marketing' | 'transactional'; at: number }>();
  /** Stateless; made here, not injected, so the constructor stays the one callers outside the service use. */
  private readonly facts = new ContactFactsStore();

  constructor(
    private readonly contacts: ContactsClient,
    private readonly sending: SendingClient,
    @Inject(WORKFLOWS_SETTINGS) settings: WorkflowsSettings,
    @Inject(HERALD_RUNTIME) runtime: HeraldRuntime,
    @Inject(WORKFLOWS_RENDER_POOL) private readonly renderer: TemplateRenderPool,
  ) {
    const secret =
      settings.WORKFLOW_WEBHOOK_SECRET ??
      createHmac('sha256', runtime.internalJwtSecret).update('workflow-webhooks').digest('hex');
    this.webhookRetryBaseMs = settings.WORKFLOW_WEBHOOK_RETRY_BASE_MS;
    this.webhooks = new WebhookCaller({
      secret,
      ...(settings.WORKFLOW_WEBHOOK_ALLOW ? { allow: settings.WORKFLOW_WEBHOOK_ALLOW } : {}),
    });
  }

  /** Runs the claimed tasks of one batch: emails in one intake call per project, the rest concurrently. */
  async runAll(tasks: StepTask[], m: EntityManager): Promise<Map<string, StepOutcome>> {
    const out = new Map<string, StepOutcome>();
    const emails = tasks.filter((t) => t.step.type === 'SEND_EMAIL');
    const others = tasks.filter((t) => t.step.type !== 'SEND_EMAIL');
    await Promise.all([
      this.sendEmails(emails, out),
      ...others.map(async (t) => {
        try {
          out.set(t.run.id, await stepSpan([t], () => this.runOne(t, m)));
        } catch (err) {
          out.set(t.run.id, this.failure(err));
        }
      }),
    ]);
    return out;
  }

  private failure(err: unknown): StepOutcome {
    if (err instanceof DomainError && err.kind !== 'unavailable')
      return {
        kind: 'fail',
        error: `${err.code}: ${err.message}`,
        ...(err.details.errors ? { detail: { errors: err.details.errors } } : {}),
      };
    log.warn('a step failed for a transient reason; retrying', { err: String(err) });
    return { kind: 'retry', error: String((err as Error).message ?? err), delayMs: TRANSIENT_RETRY_MS };
  }

  private async runOne(t: StepTask, m: EntityManager): Promise<StepOutcome> {
    const c = t.step.config;
    switch (t.step.type) {
      case 'DELAY':
        return { kind: 'next', branch: '', outcome: 'delayed' };
      case 'WAIT_FOR_EVENT':
        return t.run.resumedWith
          ? {
              kind: 'next',
              branch: 'event',
              outcome: 'event',
              context: { ...t.execution.context, ...t.run.resumedWith },
            }
          : { kind: 'next', branch: 'timeout', outcome: 'timeout' };
      case 'EXIT':
        return { kind: 'exit', reason: (c.reason as string | undefined) ?? null };
      case 'CONDITION': {
        const contact = await this.contacts.get(t.execution.projectId, t.execution.contactId);
        const activity = await this.facts.activityOf(m, t.execution.projectId, t.execution.contactId);
        const segments = await this.facts.segmentsOf(m, t.execution.projectId, t.execution.contactId);
        const { branch, values, matched } = evaluateConditionStep(
          parseConditionStep(c),
          {
            contact: {
              id: contact.id,
              email: contact.email,
              subscribed: contact.subscribed,
              createdAt: new Date(contact.createdAt),
              updatedAt: new Date(contact.updatedAt),
              data: contact.data ?? {},
              events: activity
                .filter((a) => a.source === 'event')
                .map((a) => ({ name: a.name, occurredAt: a.occurred_at })),
              emails: activity
                .filter((a) => a.source === 'email')
                .map((a) => ({ kind: a.name, occurredAt: a.occurred_at })),
              segmentIds: new Set(segments),
            },
            event: t.execution.event,
            context: t.execution.context,
          },
          new Date(),
        );
        return {
          kind: 'next',
          branch,
          outcome: branch,
          detail: { values, ...(matched !== undefined ? { matched } : {}) },
        };
      }
      case 'UPDATE_CONTACT': {
        const change = {
          ...(c.data !== undefined ? { data: c.data as Record<string, unknown> } : {}),
          ...(c.subscribed !== undefined ? { subscribed: c.subscribed as boolean } : {}),
        };
        const r = await this.contacts.update(t.execution.projectId, t.execution.email, change, t.run.id);
        return {
          kind: 'next',
          branch: '',
          outcome: 'updated',
          detail: { changedKeys: r.changedKeys, ...(r.duplicate ? { duplicate: true } : {}) },
        };
      }
      case 'WEBHOOK':
        return this.webhook(t);
      case 'SEND_EMAIL':
        throw new Error('SEND_EMAIL runs in sendEmails');
    }
  }

  private async webhook(t: StepTask): Promise<StepOutcome> {
    const c = t.step.config;
    const method = (c.method as string | undefined) ?? 'POST';
    const headerEntries = Object.entries((c.headers as Record<string, string> | undefined) ?? {});
    const bodySource =
      method === 'GET' || c.body === undefined
        ? undefined
        : typeof c.body === 'string'
          ? c.body
          : JSON.stringify(c.body);
    // one render task for the step: the URL, each header, the body (in that order, as before)
    const sources = [
      c.url as string,
      ...headerEntries.map(([, v]) => v),
      ...(bodySource !== undefined ? [bodySource] : []),
    ];
    const { outputs } = await this.renderer.render({
      parts: sources.map((source) => ({ source, escape: 'none' as const })),
      variables: templateVariables(t),
    });
    const url = outputs[0]!;
    const headers = Object.fromEntries(headerEntries.map(([k], i) => [k, outputs[1 + i]!]));
    let body: string | undefined;
    if (method !== 'GET') {
      if (bodySource !== undefined) body = outputs[1 + headerEntries.length]!;
      else
        body = JSON.stringify({
          contact: { id: t.execution.contactId, email: t.execution.email },
          workflow: { id: t.execution.workflowId, name: t.workflowName },
          execution: { id: t.execution.id, context: t.execution.context },
          event: t.execution.event,
        });
    }
    const answer = await this.webhooks.call({
      url,
      method,
      headers,
      ...(body !== undefined ? { body } : {}),
      idempotencyKey: t.run.id,
    });
    const detail = {
      status: answer.status,
      response: answer.body.slice(0, 2000),
      ...(answer.error ? { error: answer.error } : {}),
      attempt: t.run.attempts + 1,
    };
    if (answer.status >= 200 && answer.status < 300) return { kind: 'next', branch: '', outcome: 'called', detail };
    const error = answer.error ?? `the webhook answered ${answer.status}`;
    if (answer.permanent || t.run.attempts + 1 >= WEBHOOK_MAX_ATTEMPTS) return { kind: 'fail', error, detail };
    return { kind: 'retry', error, delayMs: webhookBackoffMs(t.run.attempts + 1, this.webhookRetryBaseMs), detail };
  }

  private async category(projectId: string, templateId: string): Promise<'marketing' | 'transactional'> {
    const key = `${projectId}:${templateId}`;
    const hit = this.templateTypes.get(key);
    if (hit && hit.at > Date.now() - 60_000) return hit.type;
    const t = await this.sending.template(projectId, templateId);
    this.templateTypes.set(key, { type: t.type, at: Date.now() });
    return t.type;
  }

  /**
   * The intake refuses a whole call for one bad item (422 naming `items[i]`): those items fail their
   * executions (the error recorded) and the others are sent again without them.
   */
  private async sendRefusingBadItems(
    projectId: string,
    items: IntakeItem[],
  ): Promise<{ results: Map<number, IntakeResult>; refused: Map<number, { message: string; errors: unknown[] }> }> {
    const refused = new Map<number, { message: string; errors: unknown[] }>();
    let indices = items.map((_, i) => i);
    for (let round = 0; round < 3 && indices.length; round++) {
      try {
        const answer = await this.sending.send(
          projectId,
          indices.map((i) => items[i]!),
        );
        return { results: new Map(indices.map((i, k) => [i, answer[k]!] as const)), refused };
      } catch (err) {
        const problems = err instanceof DomainError && err.kind === 'invalid' ? (err.details.errors ?? []) : [];
        const bad = new Set<number>();
        for (const p of problems) {
          const at = intakeItemOf(p);
          if (at) bad.add(indices[at.index]!);
        }
        if (!bad.size) throw err;
        for (const i of bad)
          refused.set(i, {
            message: `${(err as DomainError).code}: ${problems
              .filter((p) => p.field.startsWith(`items[${indices.indexOf(i)}]`))
              .map((p) => p.message)
              .join('; ')}`,
            errors: problems.filter((p) => p.field.startsWith(`items[${indices.indexOf(i)}]`)),
          });
        indices = indices.filter((i) => !bad.has(i));
      }
    }
    return { results: new Map(), refused };
  }

  /**
   * One intake call per project; each email's key is `workflow:<executionId>:<stepId>`, so a repeat
   * never sends twice. A step with a recipient override (`to`, Plunk's CUSTOM recipient) hands
   * sending the execution's contact: the email goes to the address but stays the contact's (its
   * history and engagement, its variables, its subscription for marketing mail), as Plunk tracks it.
   */
  private async sendEmails(tasks: StepTask[], out: Map<string, StepOutcome>): Promise<void> {
    const byProject = new Map<string, StepTask[]>();
    for (const t of tasks) byProject.set(t.execution.projectId, [...(byProject.get(t.execution.projectId) ?? []), t]);
    for (const [projectId, list] of byProject) await stepSpan(list, () => this.sendProject(projectId, list, out));
  }

  private async sendProject(projectId: string, list: StepTask[], out: Map<string, StepOutcome>): Promise<void> {
    try {
      const items: IntakeItem[] = [];
      for (const t of list) {
        const c = t.step.config;
        // the override renders with the contact's data (`{{ manager_email }}`), as in the dry run
        const contact = c.to ? await this.contacts.get(projectId, t.execution.contactId) : undefined;
        const to = c.to
          ? (
              await this.renderer.render({
                parts: [{ source: c.to as string, escape: 'none' }],
                variables: templateVariables(t, contact),
              })
            ).outputs[0]!.trim()
          : t.execution.email;
        items.push({
          key: `workflow:${t.execution.id}:${t.step.id}`,
          to,
          ...(contact ? { contact: snapshotOf(contact) } : {}),
          ...(c.from ? { from: c.from as string } : {}),
          ...(c.fromName ? { fromName: c.fromName as string } : {}),
          ...(c.replyTo ? { replyTo: c.replyTo as string } : {}),
          templateId: c.templateId as string,
          data: { event: t.execution.event, context: t.execution.context },
          category: await this.category(projectId, c.templateId as string),
          origin: 'workflow',
          workflowId: t.execution.workflowId,
          executionId: t.execution.id,
          priority: 'normal',
          ...(t.run.traceparent ? { traceparent: t.run.traceparent } : {}),
        });
      }
      const { results, refused } = await this.sendRefusingBadItems(projectId, items);
      list.forEach((t, i) => {
        const bad = refused.get(i);
        if (bad) return out.set(t.run.id, { kind: 'fail', error: bad.message, detail: { errors: bad.errors } });
        const r = results.get(i);
        if (!r) out.set(t.run.id, { kind: 'retry', error: 'no answer for this email', delayMs: TRANSIENT_RETRY_MS });
        else if (r.status === 'skipped')
          out.set(t.run.id, { kind: 'next', branch: '', outcome: 'skipped', detail: { reason: r.reason ?? null } });
        else
          out.set(t.run.id, {
            kind: 'next',
            branch: '',
            outcome: 'sent',
            detail: { emailId: r.emailId ?? null, status: r.status },
          });
      });
    } catch (err) {
      for (const t of list) out.set(t.run.id, this.failure(err));
    }
  }
}
