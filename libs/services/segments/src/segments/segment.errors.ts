import { conflictError, DomainError, invalidInput, notFoundError } from '@herald/core';

/** Stable codes of segments (docs/errors.md); integrators match on them, so never rename one. */
export const SegmentErrorCode = {
  NotFound: 'SEGMENT_NOT_FOUND',
  /** Another segment's filter references it (`segment.<id>`). */
  Referenced: 'SEGMENT_REFERENCED',
  /** An active campaign's audience (added by the campaigns service's check). */
  InUse: 'SEGMENT_IN_USE',
  /** Static member routes on a dynamic segment, a condition on a static one. */
  WrongType: 'SEGMENT_TYPE_MISMATCH',
} as const;

export const SegmentErrors = {
  /** 404: no segment with this id in the caller's project (another project's included). */
  notFound: (id: string) => notFoundError('Segment', id, SegmentErrorCode.NotFound),
  /** 409: other segments' filters reference it. */
  referenced: (by: { id: string; name: string }[]) =>
    conflictError(
      SegmentErrorCode.Referenced,
      `The segment is referenced by the filter of ${by.map((s) => `${s.name} (${s.id})`).join(', ')}`,
      'Remove the segment.<id> conditions from those segments first.',
    ),
  /** 409: a SCHEDULED or SENDING campaign's audience is the segment. */
  inUse: (by: { id: string; name: string }[]) =>
    conflictError(
      SegmentErrorCode.InUse,
      `The segment is the audience of an active campaign: ${by.map((c) => `${c.name} (${c.id})`).join(', ')}`,
      'Cancel those campaigns, or wait until they are sent.',
    ),
  /** 422 on one field. */
  field: (field: string, message: string, code = 'VALIDATION_ERROR') => invalidInput([{ field, message, code }]),
  /** 422: members are only managed on a static segment. */
  notStatic: () =>
    new DomainError(
      'invalid',
      SegmentErrorCode.WrongType,
      'Members can only be added to or removed from a STATIC segment',
      {
        errors: [
          {
            field: 'type',
            code: SegmentErrorCode.WrongType,
            message: 'the segment is DYNAMIC: its members follow its filter',
          },
        ],
      },
    ),
};
