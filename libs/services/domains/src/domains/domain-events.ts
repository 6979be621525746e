import { DomainUnverified, DomainVerified, type EventEnvelope } from '@herald/contracts';
import { DOMAINS } from '../consumer.js';
import type { Domain } from './domain.entity.js';

/** What caused an event: the request (correlation) and, for a reaction to an event, that event. */
export interface EventTrace {
  correlationId?: string;
  causationId?: string;
}

const traced = (t: EventTrace) => ({
  ...(t.correlationId ? { correlationId: t.correlationId } : {}),
  ...(t.causationId ? { causationId: t.causationId } : {}),
});

/** `domain.verified`: what a sender needs to sign for the domain (the key only sealed). */
export const domainVerified = (d: Domain, trace: EventTrace = {}): EventEnvelope =>
  DomainVerified.create({
    projectId: d.projectId,
    source: DOMAINS,
    payload: {
      domainId: d.id,
      domain: d.domain,
      status: 'verified',
      dkimSelector: d.dkimSelector,
      dkimPrivateKeySealed: d.dkimPrivateKeySealed,
    },
    ...traced(trace),
  });

/** `domain.unverified`: the domain may no longer be used to send (records gone, removed, project wiped). */
export const domainUnverified = (d: Domain, reason: string, trace: EventTrace = {}): EventEnvelope =>
  DomainUnverified.create({
    projectId: d.projectId,
    source: DOMAINS,
    payload: { domainId: d.id, domain: d.domain, status: 'pending', dkimSelector: d.dkimSelector, reason },
    ...traced(trace),
  });
