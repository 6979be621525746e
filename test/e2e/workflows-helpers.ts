import type { TestDnsServer } from '@herald/testing';
import { newProject, type ProjectApi, type TestProjectApi } from './contacts-helpers.js';
import { verifiedDomain, type SendingDb } from './sending-helpers.js';

export interface StepBody {
  id: string;
  type: string;
  name: string;
}

export interface ExecutionBody {
  id: string;
  status: string;
  contactId: string;
  email: string;
  /** The triggering event's name, or `manual`. */
  trigger: string;
  reason: string | null;
  context: Record<string, unknown>;
  event: Record<string, unknown>;
  steps?: {
    stepId: string;
    type: string;
    status: string;
    outcome: string | null;
    error: string | null;
    detail: Record<string, unknown> | null;
    startedAt: string;
    finishedAt: string | null;
    /** Null: a WAIT_FOR_EVENT without a timeout, waiting for its event with no deadline. */
    dueAt: string | null;
    attempts: number;
  }[];
}

let domains = 0;

/**
 * Another project of the account whose session is `owner`, with a verified sending domain (published on
 * the loopback `dns`, waited for in sending's copy) and `from`, an address on it: what SEND_EMAIL
 * templates and /v1/send need.
 */
export async function projectWithDomain(
  baseUrl: string,
  owner: string,
  dns: TestDnsServer,
  sending: SendingDb,
): Promise<TestProjectApi & { from: string }> {
  const api = await newProject(baseUrl, owner);
  const domain = `wf${++domains}-${Date.now().toString(36)}.example.test`;
  await verifiedDomain(api, dns, sending, domain);
  return Object.assign(api, { from: `hello@${domain}` });
}

async function ok<T>(p: Promise<{ status: number; body: T }>, what: string): Promise<T> {
  const r = await p;
  if (r.status >= 300) throw new Error(`${what} answered ${r.status}: ${JSON.stringify(r.body)}`);
  return r.body;
}

export type StepSpec = [type: string, config: Record<string, unknown>];

/**
 * Builds a workflow through the API: steps in order, and transitions given as
 * `[fromIndex, toIndex, branch?]` (a chain when omitted). Enabled unless `draft`.
 */
export async function buildWorkflow(
  api: ProjectApi,
  opts: {
    eventName: string;
    steps: StepSpec[];
    edges?: [number, number, string?][];
    allowReentry?: boolean;
    draft?: boolean;
  },
): Promise<{ id: string; steps: StepBody[] }> {
  const w = await ok(
    api.post<{ id: string }>('/workflows', {
      name: `wf ${opts.eventName}`,
      eventName: opts.eventName,
      allowReentry: opts.allowReentry ?? false,
    }),
    'POST /workflows',
  );
  const steps: StepBody[] = [];
  for (const [i, [type, config]] of opts.steps.entries())
    steps.push(
      await ok(
        api.post<StepBody>(`/workflows/${w.id}/steps`, { type, name: `${type.toLowerCase()} ${i}`, config }),
        `POST step ${i}`,
      ),
    );
  const edges = opts.edges ?? steps.slice(1).map((_, i) => [i, i + 1] as [number, number]);
  for (const [from, to, branch] of edges)
    await ok(
      api.post(`/workflows/${w.id}/transitions`, {
        fromStepId: steps[from]!.id,
        toStepId: steps[to]!.id,
        ...(branch ? { branch } : {}),
      }),
      'POST transition',
    );
  if (!opts.draft) await ok(api.patch(`/workflows/${w.id}`, { enabled: true }), 'enable');
  return { id: w.id, steps };
}

export async function executions(api: ProjectApi, workflowId: string, status?: string): Promise<ExecutionBody[]> {
  return (
    await ok(
      api.get<{ data: ExecutionBody[] }>(`/workflows/${workflowId}/executions${status ? `?status=${status}` : ''}`),
      'list executions',
    )
  ).data;
}

export async function execution(api: ProjectApi, workflowId: string, id: string): Promise<ExecutionBody> {
  return ok(api.get<ExecutionBody>(`/workflows/${workflowId}/executions/${id}`), 'get execution');
}

/** A step as Plunk's API writes it: canvas coordinates, Plunk's config shapes, a SEND_EMAIL's templateId beside the config. */
export interface PlunkStep {
  type: string;
  name: string;
  position: { x: number; y: number } | number;
  config: Record<string, unknown>;
  templateId?: string;
}

/**
 * Builds a workflow through the API with Plunk's shapes only: `steps` by key, `transitions` as
 * `[from, to, condition?]` (Plunk's `{branch}` or `{fallback: true}`), each with Plunk's `priority`.
 * Left a draft: the caller enables it. Answers the workflow id and each step's id by key.
 */
export async function buildPlunkWorkflow<K extends string>(
  api: ProjectApi,
  opts: {
    eventName?: string;
    steps: Record<K, PlunkStep>;
    transitions?: [from: NoInfer<K>, to: NoInfer<K>, condition?: Record<string, unknown>][];
  },
): Promise<{ id: string; ids: Record<K, string> }> {
  const w = await ok(
    api.post<{ id: string }>('/workflows', {
      name: `plunk ${opts.eventName ?? 'untriggered'}`,
      ...(opts.eventName ? { eventName: opts.eventName } : {}),
    }),
    'POST /workflows',
  );
  const ids = {} as Record<K, string>;
  for (const [key, step] of Object.entries(opts.steps) as [K, PlunkStep][])
    ids[key] = (await ok(api.post<StepBody>(`/workflows/${w.id}/steps`, step), `POST step ${key}`)).id;
  for (const [i, [from, to, condition]] of (opts.transitions ?? []).entries())
    await ok(
      api.post(`/workflows/${w.id}/transitions`, {
        fromStepId: ids[from],
        toStepId: ids[to],
        priority: i,
        ...(condition ? { condition } : {}),
      }),
      `POST transition ${from} → ${to}`,
    );
  return { id: w.id, ids };
}
