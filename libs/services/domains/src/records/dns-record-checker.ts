import { isNoDataError } from '@herald/core';
import { Inject, Injectable } from '@nestjs/common';
import { checkRecord, type ExpectedRecord, type RecordCheck, type TxtAnswer } from './dns-records.js';

/** What the checker needs of a resolver (node:dns/promises `Resolver` fits). */
export interface TxtResolver {
  resolveTxt(name: string): Promise<string[][]>;
}

export const DOMAINS_RESOLVER = Symbol('DOMAINS_RESOLVER');

/** Looks up a domain's expected records (in parallel) and judges each answer. */
@Injectable()
export class DnsRecordChecker {
  constructor(@Inject(DOMAINS_RESOLVER) private readonly resolver: TxtResolver) {}

  async check(expected: ExpectedRecord[]): Promise<RecordCheck[]> {
    const answers = new Map<string, Promise<TxtAnswer>>();
    // SPF and other records may share a name: ask once per name
    for (const r of expected) if (!answers.has(r.name)) answers.set(r.name, this.lookup(r.name));
    return Promise.all(expected.map(async (r) => checkRecord(r, await answers.get(r.name)!)));
  }

  private async lookup(name: string): Promise<TxtAnswer> {
    try {
      return { records: await this.resolver.resolveTxt(name) };
    } catch (err) {
      if (isNoDataError(err)) return { error: 'no_data' };
      return {
        error: 'failed',
        code: (err as { code?: string }).code ?? (err instanceof Error ? err.message : String(err)),
      };
    }
  }
}
