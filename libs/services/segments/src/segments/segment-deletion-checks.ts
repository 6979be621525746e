import { parseFilter, referencesOf } from '@herald/filters';
import { InjectReferences, type ReferenceDirectory } from '@herald/messaging';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { SEGMENTS } from '../consumer.js';
import { Segment } from '../membership/segment.entity.js';
import { SegmentErrors } from './segment.errors.js';

/**
 * What must hold before a segment is deleted, checked in the deleting transaction (the segment row
 * is locked):
 * - no other segment's filter references it (`segment.<id>`), which would otherwise silently stop
 *   matching: 409 `SEGMENT_REFERENCED`;
 * - no active campaign (SCHEDULED or SENDING) has it as its audience: 409 `SEGMENT_IN_USE`, answered
 *   from the `segment` references campaigns publish with `active: true` (segments owns `segment`
 *   references: docs/adr/0011-usage-references.md, docs/campaigns.md "Segments in use").
 */
@Injectable()
export class SegmentDeletionChecks {
  constructor(@InjectReferences(SEGMENTS) private readonly references: ReferenceDirectory) {}

  async assertDeletable(m: EntityManager, segment: Segment): Promise<void> {
    const others = await m.find(Segment, { where: { projectId: segment.projectId }, order: { id: 'ASC' } });
    const referencing = others.filter(
      (s) =>
        s.id !== segment.id &&
        s.filters !== null &&
        referencesOf(parseFilter(s.filters, 'filters')).segments.includes(segment.id),
    );
    if (referencing.length > 0) throw SegmentErrors.referenced(referencing.map((s) => ({ id: s.id, name: s.name })));
    const campaigns = await this.references.activeUsers(segment.projectId, 'segment', segment.id, m);
    if (campaigns.length > 0) throw SegmentErrors.inUse(campaigns);
  }
}
