import { isValidEmail, normaliseEmail } from '@herald/contact-data';
import { BODY_FORMATS, type BodyFormat } from '@herald/templating';
import type { CallProblem as FieldProblem } from '../call-contract.js';

/** The contact snapshot a caller renders with (campaigns pass it: no lookup). */
export interface IntakeContact {
  id: string;
  email: string;
  subscribed: boolean;
  data: Record<string, unknown>;
  createdAt?: string;
  updatedAt?: string;
  locale?: string;
}

export type IntakeCategory = 'marketing' | 'transactional';
export type IntakeOrigin = 'campaign' | 'workflow';
export type IntakePriority = 'bulk' | 'normal';

/** One email a campaign or a workflow asks sending to deliver (docs/sending.md, "Internal intake"). */
export interface IntakeItem {
  key: string;
  /** As given (trimmed); an invalid address is a `skipped` item, not a refused call. */
  to: string;
  contact?: IntakeContact;
  from?: string;
  fromName?: string;
  replyTo?: string;
  subject?: string;
  body?: string;
  /** The format of `body` (default `html`); without a body, the template's format applies. */
  format?: BodyFormat;
  templateId?: string;
  data?: Record<string, unknown>;
  category: IntakeCategory;
  origin: IntakeOrigin;
  campaignId?: string;
  workflowId?: string;
  executionId?: string;
  priority: IntakePriority;
  /**
   * A campaign's test send (POST /campaigns/:id/test): sent whatever the contact's subscription
   * (never skipped as unsubscribed; a suppressed or invalid address still is), recorded `test: true`.
   */
  test?: boolean;
  /**
   * The W3C trace context this email belongs to when it is not the call's (a call for items of
   * several traces: a workflow runner's batch): its delivery's SMTP span joins it (ADR 0019).
   * One of more than 55 characters is ignored, as a malformed one is when the span starts.
   */
  traceparent?: string;
}

export const INTAKE_LIMITS = { items: 500, key: 200, id: 60, subject: 998, name: 200, address: 320 } as const;

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * Validates an intake call's body (`sending.intake`), or answers every problem as field errors named
 * `items[i].<field>` (422: nothing of the call is written). Campaign mail defaults to the bulk lane,
 * everything else to the normal one.
 */
export function parseIntakeRequest(raw: unknown): IntakeItem[] | FieldProblem[] {
  if (!isObject(raw) || !Array.isArray(raw.items))
    return [{ field: 'items', message: 'The body must be {items: [...]}', code: 'invalid_type' }];
  const list = raw.items;
  if (list.length < 1 || list.length > INTAKE_LIMITS.items)
    return [{ field: 'items', message: `items must hold 1 to ${INTAKE_LIMITS.items} emails`, code: 'too_big' }];
  const errors: FieldProblem[] = [];
  const items: IntakeItem[] = [];
  list.forEach((value, i) => {
    const item = parseItem(value, `items[${i}]`, errors);
    if (item) items.push(item);
  });
  return errors.length > 0 ? errors : items;
}

function parseItem(raw: unknown, at: string, errors: FieldProblem[]): IntakeItem | undefined {
  if (!isObject(raw)) {
    errors.push({ field: at, message: `${at} must be an object`, code: 'invalid_type' });
    return undefined;
  }
  const before = errors.length;
  const problem = (field: string, message: string, code = 'invalid_string') =>
    errors.push({ field: `${at}.${field}`, message: `${at}.${field} ${message}`, code });
  const text = (field: string, max: number, required = false): string | undefined => {
    const v = raw[field];
    if (v === undefined || v === null) {
      if (required) problem(field, 'is required', 'required');
      return undefined;
    }
    if (typeof v !== 'string' || v.length < 1 || v.length > max) {
      problem(field, `must be a string of 1 to ${max} characters`);
      return undefined;
    }
    return v;
  };
  const oneOf = <T extends string>(field: string, allowed: readonly T[], required: boolean): T | undefined => {
    const v = raw[field];
    if (v === undefined && !required) return undefined;
    if (typeof v !== 'string' || !(allowed as readonly string[]).includes(v)) {
      problem(field, `must be one of ${allowed.join(', ')}`, v === undefined ? 'required' : 'invalid_enum_value');
      return undefined;
    }
    return v as T;
  };
  const address = (field: string): string | undefined => {
    const v = text(field, INTAKE_LIMITS.address);
    if (v !== undefined && !isValidEmail(v.trim())) {
      problem(field, 'must be a valid email address');
      return undefined;
    }
    return v === undefined ? undefined : normaliseEmail(v);
  };
  const oneLine = (field: string, max: number): string | undefined => {
    const v = text(field, max);
    if (v !== undefined && /[\r\n]/.test(v)) {
      problem(field, 'must not contain line breaks');
      return undefined;
    }
    return v;
  };

  const key = text('key', INTAKE_LIMITS.key, true);
  const to = typeof raw.to === 'string' ? raw.to.trim() : undefined;
  if (to === undefined)
    problem('to', 'must be the recipient address', raw.to === undefined ? 'required' : 'invalid_type');
  const contact = raw.contact === undefined || raw.contact === null ? undefined : parseContact(raw.contact, at, errors);
  const from = address('from');
  const fromName = oneLine('fromName', INTAKE_LIMITS.name);
  const replyTo = address('replyTo');
  const subject = oneLine('subject', INTAKE_LIMITS.subject);
  const body = text('body', Number.MAX_SAFE_INTEGER);
  const format = oneOf('format', BODY_FORMATS, false);
  const templateId = text('templateId', INTAKE_LIMITS.id);
  if (templateId === undefined && raw.templateId === undefined) {
    if (raw.subject === undefined) problem('subject', 'is required unless templateId is given', 'required');
    if (raw.body === undefined) problem('body', 'is required unless templateId is given', 'required');
  }
  if (templateId === undefined && raw.templateId === undefined && raw.from === undefined)
    problem('from', 'is required unless the template has one', 'required');
  if (raw.data !== undefined && raw.data !== null && !isObject(raw.data))
    problem('data', 'must be an object', 'invalid_type');
  const category = oneOf('category', ['marketing', 'transactional'] as const, true);
  const origin = oneOf('origin', ['campaign', 'workflow'] as const, true);
  const campaignId = text('campaignId', INTAKE_LIMITS.id);
  const workflowId = text('workflowId', INTAKE_LIMITS.id);
  const executionId = text('executionId', INTAKE_LIMITS.id);
  const priority = oneOf('priority', ['bulk', 'normal'] as const, false);
  if (raw.test !== undefined && typeof raw.test !== 'boolean') problem('test', 'must be a boolean', 'invalid_type');

  if (errors.length > before || !key || to === undefined || !category || !origin) return undefined;
  return {
    key,
    to,
    ...(contact ? { contact } : {}),
    ...(from ? { from } : {}),
    ...(fromName ? { fromName } : {}),
    ...(replyTo ? { replyTo } : {}),
    ...(subject !== undefined ? { subject } : {}),
    ...(body !== undefined ? { body } : {}),
    ...(format ? { format } : {}),
    ...(templateId ? { templateId } : {}),
    ...(isObject(raw.data) ? { data: raw.data } : {}),
    category,
    origin,
    ...(campaignId ? { campaignId } : {}),
    ...(workflowId ? { workflowId } : {}),
    ...(executionId ? { executionId } : {}),
    priority: priority ?? (origin === 'campaign' ? 'bulk' : 'normal'),
    ...(raw.test === true ? { test: true } : {}),
    ...(typeof raw.traceparent === 'string' && raw.traceparent.length <= 55 ? { traceparent: raw.traceparent } : {}),
  };
}

function parseContact(raw: unknown, at: string, errors: FieldProblem[]): IntakeContact | undefined {
  const field = `${at}.contact`;
  if (
    !isObject(raw) ||
    typeof raw.id !== 'string' ||
    raw.id.length === 0 ||
    raw.id.length > 64 ||
    typeof raw.email !== 'string' ||
    typeof raw.subscribed !== 'boolean' ||
    (raw.data !== undefined && raw.data !== null && !isObject(raw.data)) ||
    (raw.createdAt !== undefined && typeof raw.createdAt !== 'string') ||
    (raw.updatedAt !== undefined && typeof raw.updatedAt !== 'string') ||
    (raw.locale !== undefined && raw.locale !== null && typeof raw.locale !== 'string')
  ) {
    errors.push({
      field,
      message: `${field} must be {id, email, subscribed, data, createdAt?, updatedAt?, locale?}`,
      code: 'invalid_type',
    });
    return undefined;
  }
  return {
    id: raw.id,
    email: raw.email,
    subscribed: raw.subscribed,
    data: isObject(raw.data) ? raw.data : {},
    ...(typeof raw.createdAt === 'string' ? { createdAt: raw.createdAt } : {}),
    ...(typeof raw.updatedAt === 'string' ? { updatedAt: raw.updatedAt } : {}),
    ...(typeof raw.locale === 'string' ? { locale: raw.locale } : {}),
  };
}

/** Why an item is stored but never sent. */
export type IntakeSkipReason = 'unsubscribed' | 'suppressed' | 'invalid_address';

/** What became of one item, in the order of the call. */
export interface IntakeResult {
  key: string;
  status: 'queued' | 'duplicate' | 'skipped';
  emailId?: string;
  /** `skipped` (and a `duplicate` whose first email was skipped): why no email is sent. */
  reason?: IntakeSkipReason;
  /** `duplicate`: what the first call with this key answered, so a caller recovering from a crash can finish its ledger. */
  firstStatus?: 'queued' | 'skipped';
}

export interface IntakeAnswer {
  results: IntakeResult[];
}

/**
 * The item a field problem of a refused intake call names, and the field within it (`items[3].to` →
 * `{index: 3, field: 'to'}`; `items[3]` → field `''`); undefined for a problem of the whole call.
 */
export function intakeItemOf(problem: { field: string }): { index: number; field: string } | undefined {
  const match = /^items\[(\d+)\]\.?(.*)$/.exec(problem.field);
  return match ? { index: Number(match[1]), field: match[2]! } : undefined;
}
