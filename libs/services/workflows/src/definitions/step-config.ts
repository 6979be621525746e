import { backoffDelay } from '@herald/core';
import type { WorkflowStepType } from '@herald/contracts';
import type { FieldProblem } from '@herald/core';
import { validateTemplate } from '@herald/templating';
import { DomainError } from '@herald/core';
import { parseConditionStep } from './condition-step.js';

/** DELAY units and their length in milliseconds (fixed lengths: a day is 24 h, no calendar). */
export const DELAY_UNITS = {
  seconds: 1_000,
  minutes: 60_000,
  hours: 3_600_000,
  days: 86_400_000,
  weeks: 604_800_000,
} as const;
export type DelayUnit = keyof typeof DELAY_UNITS;
/** The longest DELAY and WAIT_FOR_EVENT timeout: one year (365 days). */
export const MAX_WAIT_MS = 365 * 86_400_000;
export const WEBHOOK_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
const MAX_HEADERS = 20;
const MAX_TEMPLATE = 20_000;

type Config = Record<string, unknown>;
const isObject = (v: unknown): v is Config => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Checks a step's config for its type; returns the problems, each on `config.<field>` (empty: valid). */
export function checkStepConfig(type: WorkflowStepType, raw: unknown, at = 'config'): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const bad = (field: string, message: string, code = 'STEP_CONFIG_INVALID') =>
    problems.push({ field: field ? `${at}.${field}` : at, message, code });
  if (!isObject(raw)) {
    bad('', 'config must be an object');
    return problems;
  }
  const c = raw;
  const only = (...keys: string[]) => {
    for (const k of Object.keys(c))
      if (!keys.includes(k))
        bad(k, `${type} takes no ${k} (allowed: ${keys.join(', ') || 'none'})`, 'STEP_CONFIG_UNKNOWN');
  };
  const str = (k: string, required: boolean, max: number) => {
    const v = c[k];
    if (v === undefined || v === null) {
      if (required) bad(k, `${k} is required`);
      return;
    }
    if (typeof v !== 'string' || v.trim().length === 0) bad(k, `${k} must be a non-empty string`);
    else if (v.length > max) bad(k, `${k} must be at most ${max} characters`);
  };
  const template = (k: string) => {
    const v = c[k];
    if (typeof v !== 'string') return;
    for (const p of validateTemplate(v)) bad(k, `line ${p.line}, column ${p.column}: ${p.message}`, 'invalid_template');
  };
  switch (type) {
    case 'SEND_EMAIL':
      only('templateId', 'to', 'from', 'fromName', 'replyTo');
      str('templateId', true, 60);
      for (const k of ['to', 'from', 'fromName', 'replyTo']) str(k, false, 320);
      template('to');
      break;
    case 'DELAY': {
      only('amount', 'unit');
      const { amount, unit } = c;
      if (typeof amount !== 'number' || !Number.isInteger(amount) || amount <= 0)
        bad('amount', 'amount must be an integer greater than 0 (a fraction is taken in minutes, hours or days)');
      if (typeof unit !== 'string' || !(unit in DELAY_UNITS))
        bad('unit', `unit must be one of ${Object.keys(DELAY_UNITS).join(', ')}`);
      else if (typeof amount === 'number' && amount > 0 && amount * DELAY_UNITS[unit as DelayUnit] > MAX_WAIT_MS)
        bad('amount', 'a DELAY is at most one year (365 days)');
      break;
    }
    case 'WAIT_FOR_EVENT': {
      only('eventName', 'timeout');
      str('eventName', true, 255);
      // without a timeout the step waits for its event with no deadline (Plunk's optional timeout)
      const t = c.timeout;
      if (t === undefined) break;
      if (typeof t !== 'number' || !Number.isInteger(t) || t <= 0)
        bad('timeout', 'timeout must be an integer number of seconds greater than 0, or left out (no deadline)');
      else if (t * 1000 > MAX_WAIT_MS) bad('timeout', 'timeout is at most one year (31536000 seconds)');
      break;
    }
    case 'CONDITION':
      try {
        parseConditionStep(c, at);
      } catch (err) {
        if (err instanceof DomainError && err.details.errors) problems.push(...err.details.errors);
        else throw err;
      }
      break;
    case 'WEBHOOK': {
      only('url', 'method', 'headers', 'body');
      str('url', true, 2000);
      if (typeof c.url === 'string' && !/^https?:\/\/[^\s/]/i.test(c.url))
        bad('url', 'url must be an http:// or https:// URL');
      template('url');
      if (c.method !== undefined && !(WEBHOOK_METHODS as readonly unknown[]).includes(c.method))
        bad('method', `method must be one of ${WEBHOOK_METHODS.join(', ')}`);
      if (c.headers !== undefined) {
        if (!isObject(c.headers)) bad('headers', 'headers must be an object of strings');
        else {
          const entries = Object.entries(c.headers);
          if (entries.length > MAX_HEADERS) bad('headers', `at most ${MAX_HEADERS} headers`);
          for (const [name, value] of entries) {
            if (!/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,100}$/.test(name)) bad(`headers.${name}`, 'not a valid header name');
            else if (typeof value !== 'string' || value.length > 2000 || /[\r\n]/.test(value))
              bad(`headers.${name}`, 'a header value is a string of at most 2000 characters, one line');
          }
        }
      }
      if (c.body !== undefined) {
        if (typeof c.body !== 'string' && !isObject(c.body))
          bad('body', 'body must be a string (a template) or an object');
        else if (JSON.stringify(c.body).length > MAX_TEMPLATE)
          bad('body', `body must be at most ${MAX_TEMPLATE} characters`);
        else template('body');
      }
      break;
    }
    case 'UPDATE_CONTACT':
      only('data', 'subscribed');
      if (c.data !== undefined && !isObject(c.data)) bad('data', 'data must be an object');
      if (c.subscribed !== undefined && typeof c.subscribed !== 'boolean')
        bad('subscribed', 'subscribed must be a boolean');
      if (c.data === undefined && c.subscribed === undefined) bad('data', 'give data, subscribed or both');
      else if (isObject(c.data) && JSON.stringify(c.data).length > 10_000)
        bad('data', 'data must be at most 10000 characters as JSON');
      break;
    case 'EXIT':
      only('reason');
      str('reason', false, 500);
      break;
  }
  return problems;
}

/** Whether a WAIT_FOR_EVENT has a deadline: without `timeout` it waits for its event only (no `timeout` branch). */
export const hasTimeout = (config: Config): boolean => config.timeout !== undefined;

/** A DELAY's length in milliseconds. */
export const delayMs = (config: Config): number => (config.amount as number) * DELAY_UNITS[config.unit as DelayUnit];

/**
 * The backoff before webhook attempt `attempt + 1` (attempt counts from 1): `baseMs` × 4^(attempt − 1), so
 * 1 s, 4 s, 16 s, 64 s… by default (`WORKFLOW_WEBHOOK_RETRY_BASE_MS`), at most 10 min, with equal
 * jitter (between half and all of it).
 */
export const webhookBackoffMs = (attempt: number, baseMs = 1000, random: () => number = Math.random): number =>
  backoffDelay(attempt, { baseMs, maxMs: 600_000, factor: 4, random });
