import { invalidInput } from '@herald/core';
import { TemplateError, type TemplateRenderPool } from '@herald/templating';
import { evaluateConditionStep, parseConditionStep } from '../definitions/condition-step.js';
import { entryStep, nextStepId, type Graph } from '../definitions/graph.js';
import { waitOf } from '../executions/step-batch.js';

export interface SimContact {
  id: string | null;
  email: string;
  subscribed: boolean;
  data: Record<string, unknown>;
  createdAt: Date;
  updatedAt: Date;
}

export interface SimStep {
  stepId: string;
  type: string;
  name: string;
  at: string;
  outcome: string;
  why?: Record<string, unknown>;
}

export interface SimulationResult {
  path: SimStep[];
  /** WAITING: the run stopped at a WAIT_FOR_EVENT without a timeout (no event arrives in a dry run). */
  status: 'COMPLETED' | 'EXITED' | 'WAITING';
  endedAt: string;
  emails: { stepId: string; to: string; templateId: string; subject: string | null; skipped?: string }[];
  webhooks: { stepId: string; method: string; url: string; body: string | null }[];
  contactUpdates: { stepId: string; data?: Record<string, unknown>; subscribed?: boolean }[];
}

export interface SimulationInput {
  graph: Graph;
  workflowName: string;
  contact: SimContact;
  event: { name: string; data: Record<string, unknown> };
  context: Record<string, unknown>;
  start: Date;
  /** The templates' subjects and types, for the emails that would be sent. */
  templates: Map<string, { subject: string; type: 'marketing' | 'transactional' }>;
}

const MAX_STEPS = 1000;

/**
 * The dry run: walks the graph on a virtual clock, with no side effects. A DELAY advances the clock
 * by its length; a WAIT_FOR_EVENT takes its timeout branch (no event arrives in a dry run) after its
 * timeout, and one without a timeout ends the run there, WAITING (an execution would wait for its
 * event for good); a CONDITION is evaluated against the given contact, event and context (as the runtime
 * does: `evaluateConditionStep`), and the values it read are returned; a step with no transition for
 * the way it took ends the run COMPLETED, as in the runtime; emails, webhook requests and contact updates are rendered and listed, never
 * made. An UPDATE_CONTACT's data is applied to the virtual contact for the steps after it. A step's
 * templates render in one task of `renderer` (off the event loop with render threads); a template
 * that fails to render throws its `TemplateError`.
 */
export async function simulate(input: SimulationInput, renderer: TemplateRenderPool): Promise<SimulationResult> {
  let clock = input.start.getTime();
  const contact = { ...input.contact, data: { ...input.contact.data } };
  const out: SimulationResult = {
    path: [],
    status: 'COMPLETED',
    endedAt: '',
    emails: [],
    webhooks: [],
    contactUpdates: [],
  };
  const vars = () => ({
    contact,
    ...contact.data,
    id: contact.id,
    subscribed: contact.subscribed,
    email: contact.email,
    event: input.event.data,
    context: input.context,
    workflow: { name: input.workflowName },
  });
  /**
   * Renders one step's templates in one task, in order; a template that cannot be rendered for this
   * contact is the dry run's answer: a 422 naming the step (`steps.<stepId>`, `render_failed`).
   */
  const render = async (sources: string[]): Promise<string[]> => {
    if (sources.length === 0) return [];
    try {
      return (
        await renderer.render({
          parts: sources.map((source) => ({ source, escape: 'none' as const })),
          variables: vars(),
        })
      ).outputs;
    } catch (err) {
      if (!(err instanceof TemplateError) || !step) throw err;
      throw invalidInput([
        {
          field: `steps.${step.id}`,
          message: `Step "${step.name}": the template could not be rendered: ${err.message}`,
          code: 'render_failed',
        },
      ]);
    }
  };
  let step = entryStep(input.graph);
  for (let i = 0; step && i < MAX_STEPS; i++) {
    const { ms } = waitOf(step);
    clock += ms ?? 0;
    const at = new Date(clock).toISOString();
    const c = step.config;
    if (ms === null) {
      out.path.push({
        stepId: step.id,
        type: step.type,
        name: step.name,
        at,
        outcome: 'waiting',
        why: { waitedFor: c.eventName, seconds: null },
      });
      out.status = 'WAITING';
      out.endedAt = at;
      return out;
    }
    let branch = '';
    let outcome = 'done';
    let why: Record<string, unknown> | undefined;
    switch (step.type) {
      case 'DELAY':
        outcome = 'delayed';
        break;
      case 'WAIT_FOR_EVENT':
        branch = 'timeout';
        outcome = 'timeout';
        why = { waitedFor: c.eventName, seconds: c.timeout };
        break;
      case 'CONDITION': {
        const r = evaluateConditionStep(
          parseConditionStep(c),
          {
            contact: { ...contact, id: contact.id ?? 'simulated', events: [], emails: [], segmentIds: new Set() },
            event: input.event.data,
            context: input.context,
          },
          new Date(clock),
        );
        branch = r.branch;
        outcome = branch;
        why = { values: r.values, ...(r.matched !== undefined ? { matched: r.matched } : {}) };
        break;
      }
      case 'SEND_EMAIL': {
        const t = input.templates.get(c.templateId as string);
        const toSource = c.to ? (c.to as string) : undefined;
        const rendered = await render([...(toSource !== undefined ? [toSource] : []), ...(t ? [t.subject] : [])]);
        const to = toSource !== undefined ? rendered.shift()!.trim() : contact.email;
        const skipped = t?.type === 'marketing' && !contact.subscribed ? 'unsubscribed' : undefined;
        out.emails.push({
          stepId: step.id,
          to,
          templateId: c.templateId as string,
          subject: t ? rendered.shift()! : null,
          ...(skipped ? { skipped } : {}),
        });
        outcome = skipped ? 'skipped' : 'sent';
        break;
      }
      case 'WEBHOOK': {
        const method = (c.method as string | undefined) ?? 'POST';
        const bodySource =
          method === 'GET' || c.body === undefined
            ? undefined
            : typeof c.body === 'string'
              ? c.body
              : JSON.stringify(c.body);
        // the body, then the URL (the order they rendered in before)
        const rendered = await render([...(bodySource !== undefined ? [bodySource] : []), c.url as string]);
        const body =
          method === 'GET'
            ? null
            : bodySource !== undefined
              ? rendered.shift()!
              : JSON.stringify({
                  contact: { id: contact.id, email: contact.email },
                  workflow: { name: input.workflowName },
                  event: input.event.data,
                });
        out.webhooks.push({ stepId: step.id, method, url: rendered.shift()!, body });
        outcome = 'called';
        break;
      }
      case 'UPDATE_CONTACT': {
        const data = c.data as Record<string, unknown> | undefined;
        out.contactUpdates.push({
          stepId: step.id,
          ...(data ? { data } : {}),
          ...(c.subscribed !== undefined ? { subscribed: c.subscribed as boolean } : {}),
        });
        if (data)
          for (const [k, v] of Object.entries(data)) {
            if (v === null) delete contact.data[k];
            else if (v !== '') contact.data[k] = v;
          }
        if (typeof c.subscribed === 'boolean') contact.subscribed = c.subscribed;
        outcome = 'updated';
        break;
      }
      case 'EXIT':
        out.path.push({
          stepId: step.id,
          type: step.type,
          name: step.name,
          at,
          outcome: 'exited',
          ...(c.reason ? { why: { reason: c.reason } } : {}),
        });
        out.status = 'EXITED';
        out.endedAt = at;
        return out;
    }
    out.path.push({ stepId: step.id, type: step.type, name: step.name, at, outcome, ...(why ? { why } : {}) });
    const next = nextStepId(input.graph, step.id, branch);
    step = next ? input.graph.steps.find((s) => s.id === next) : undefined;
  }
  out.endedAt = new Date(clock).toISOString();
  return out;
}
