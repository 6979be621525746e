import { expectedRecords, type ExpectedRecord, type RecordCheck, type RecordStatus } from '../records/dns-records.js';
import type { Domain, DomainStatus } from './domain.entity.js';

/** A record to publish, with what the last check saw of it (absent before the first check). */
export interface DomainRecordView extends ExpectedRecord {
  status?: RecordStatus;
  found?: string[];
  problem?: string;
}

export interface DomainView {
  id: string;
  projectId: string;
  domain: string;
  status: DomainStatus;
  dkimSelector: string;
  records: DomainRecordView[];
  lastCheckedAt: string | null;
  verifiedAt: string | null;
  createdAt: string;
}

/** The records of a domain (SPF from the current SPF_RECORD). */
export const recordsOf = (d: Domain, spfRecord: string): ExpectedRecord[] =>
  expectedRecords({
    domain: d.domain,
    verificationToken: d.verificationToken,
    dkimSelector: d.dkimSelector,
    dkimPublicKey: d.dkimPublicKey,
    spfRecord,
  });

export function domainView(d: Domain, spfRecord: string): DomainView {
  const checks = new Map((d.checks ?? []).map((c): [string, RecordCheck] => [c.purpose, c]));
  return {
    id: d.id,
    projectId: d.projectId,
    domain: d.domain,
    status: d.status,
    dkimSelector: d.dkimSelector,
    records: recordsOf(d, spfRecord).map((r) => {
      const c = checks.get(r.purpose);
      return c
        ? {
            ...r,
            status: c.status,
            ...(c.found ? { found: c.found } : {}),
            ...(c.problem ? { problem: c.problem } : {}),
          }
        : r;
    }),
    lastCheckedAt: d.lastCheckedAt?.toISOString() ?? null,
    verifiedAt: d.verifiedAt?.toISOString() ?? null,
    createdAt: d.createdAt.toISOString(),
  };
}
