import { conflictError, invalidInput, notFoundError } from '@herald/core';
import type { CampaignStatus } from './campaign.entity.js';

/** Stable codes of campaigns (docs/errors.md); integrators match on them, so never rename one. */
export const CampaignErrorCode = {
  NotFound: 'CAMPAIGN_NOT_FOUND',
  /** The route does not apply in the campaign's status (edit while sending, send twice, cancel a draft…). */
  InvalidState: 'CAMPAIGN_INVALID_STATE',
  /** Delete of a SCHEDULED or SENDING campaign (the spec's "active executions"). */
  Active: 'CAMPAIGN_ACTIVE',
  DomainNotVerified: 'domain_not_verified',
  /** Field code of `templateId` naming no template of the project (another project's included). */
  TemplateNotFound: 'TEMPLATE_NOT_FOUND',
  /** Field code of a test send's `email` on the project's suppression list (a hard bounce or a complaint). */
  AddressSuppressed: 'ADDRESS_SUPPRESSED',
} as const;

export const CampaignErrors = {
  /** 404: no campaign with this id in the caller's project (another project's included). */
  notFound: (id: string) => notFoundError('Campaign', id, CampaignErrorCode.NotFound),
  /** 409: the action does not apply in this status. */
  invalidState: (action: string, status: CampaignStatus, suggestion?: string) =>
    conflictError(
      CampaignErrorCode.InvalidState,
      `Cannot ${action} a campaign that is ${status}`,
      suggestion ?? 'Duplicate the campaign to send its content again.',
    ),
  /** 409: delete of an active campaign. */
  active: (status: CampaignStatus) =>
    conflictError(
      CampaignErrorCode.Active,
      `The campaign is ${status}: it has active executions`,
      'Cancel the campaign first (POST /campaigns/:id/cancel).',
    ),
  /** 422 on one field. */
  field: (field: string, message: string, code = 'VALIDATION_ERROR') => invalidInput([{ field, message, code }]),
};
