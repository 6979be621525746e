import {
  CampaignCancelled,
  CampaignScheduled,
  CampaignSending,
  CampaignSent,
  ContactUnsubscribed,
  EmailBounced,
  EmailClicked,
  EmailComplained,
  EmailDelivered,
  EmailOpened,
  EmailSent,
  EventTracked,
  ResourceReferencesChanged,
  WorkflowFinished,
  WorkflowStepCompleted,
  WorkflowWaiting,
  type EmailLifecycleV1,
  type EventEnvelope,
} from '@herald/contracts';

/** Builders of the events analytics consumes, with defaults a test overrides (test data builders). */
export class ActivityEvents {
  constructor(readonly projectId: string) {}

  email(
    kind: 'sent' | 'delivered' | 'opened' | 'clicked' | 'bounced' | 'complained',
    at: Date,
    p: Partial<EmailLifecycleV1> & { emailId: string; contactId: string },
  ): EventEnvelope {
    const contract = {
      sent: EmailSent,
      delivered: EmailDelivered,
      opened: EmailOpened,
      clicked: EmailClicked,
      bounced: EmailBounced,
      complained: EmailComplained,
    }[kind];
    return contract.create({
      projectId: this.projectId,
      source: 'test',
      occurredAt: at,
      payload: { email: `${p.contactId}@example.com`, subject: 'Hello', origin: 'api', ...p },
    });
  }

  tracked(at: Date, contactId: string, name: string): EventEnvelope {
    return EventTracked.create({
      projectId: this.projectId,
      source: 'test',
      occurredAt: at,
      payload: {
        eventRecordId: `evt_${contactId}_${name}`,
        contactId,
        email: `${contactId}@example.com`,
        name,
        data: {},
      },
    });
  }

  unsubscribed(at: Date, contactId: string, reason = 'unsubscribe-link'): EventEnvelope {
    return ContactUnsubscribed.create({
      projectId: this.projectId,
      source: 'test',
      occurredAt: at,
      payload: { contactId, email: `${contactId}@example.com`, reason: reason as 'unsubscribe-link' },
    });
  }

  campaign(
    kind: 'scheduled' | 'sending' | 'sent' | 'cancelled',
    at: Date,
    campaignId: string,
    extra: { scheduledAt?: Date; estimatedRecipients?: number; recipients?: number } = {},
  ): EventEnvelope {
    const contract = {
      scheduled: CampaignScheduled,
      sending: CampaignSending,
      sent: CampaignSent,
      cancelled: CampaignCancelled,
    }[kind];
    return contract.create({
      projectId: this.projectId,
      source: 'test',
      occurredAt: at,
      payload: {
        campaignId,
        name: `Campaign ${campaignId}`,
        subject: 'News',
        audienceType: 'ALL',
        at: at.toISOString(),
        ...(extra.scheduledAt ? { scheduledAt: extra.scheduledAt.toISOString() } : {}),
        ...(extra.estimatedRecipients !== undefined ? { estimatedRecipients: extra.estimatedRecipients } : {}),
        ...(extra.recipients !== undefined ? { recipients: extra.recipients } : {}),
      },
    });
  }

  /**
   * `resource.references.changed` as campaigns publishes it when it creates (revision 1), changes or
   * deletes a campaign; `kind` names another resource (a segment, a workflow) instead.
   */
  references(
    at: Date,
    resourceId: string,
    name: string,
    revision = 1,
    kind: 'campaign' | 'segment' | 'workflow' = 'campaign',
    deleted = false,
  ): EventEnvelope {
    return ResourceReferencesChanged.create({
      projectId: this.projectId,
      source: `${kind}s`,
      occurredAt: at,
      payload: {
        resourceKind: kind,
        resourceId,
        resourceName: name,
        revision,
        references: [],
        ...(deleted ? { deleted: true as const } : {}),
      },
    });
  }

  workflow(kind: 'waiting' | 'step' | 'finished', at: Date, executionId: string, dueAt?: Date): EventEnvelope {
    const contract = { waiting: WorkflowWaiting, step: WorkflowStepCompleted, finished: WorkflowFinished }[kind];
    return contract.create({
      projectId: this.projectId,
      source: 'test',
      occurredAt: at,
      payload: {
        workflowId: 'wf_1',
        workflowName: 'Welcome',
        executionId,
        contactId: `cnt_${executionId}`,
        email: `${executionId}@example.com`,
        status: kind === 'waiting' ? 'WAITING' : kind === 'finished' ? 'COMPLETED' : 'RUNNING',
        at: at.toISOString(),
        stepId: 'step_delay',
        stepType: 'DELAY',
        stepName: 'Wait a day',
        ...(dueAt ? { dueAt: dueAt.toISOString() } : {}),
      },
    });
  }
}
