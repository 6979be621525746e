import { loadConfig, type ServiceDefinition } from '@herald/core';
import { Job, JobsModule } from '@herald/jobs';
import { messagingEntities, MessagingModule } from '@herald/messaging';
import { PersistenceModule } from '@herald/persistence';
import { Module } from '@nestjs/common';
import { Campaign, CampaignRecipient } from './campaigns/campaign.entity.js';
import { CampaignsController } from './campaigns/campaigns.controller.js';
import { CampaignsService } from './campaigns/campaigns.service.js';
import { CampaignsStore } from './campaigns/campaigns.store.js';
import { CAMPAIGNS_SETTINGS, CampaignsServiceConfig, CampaignsSettings } from './campaigns.settings.js';
import { DomainsClient } from './clients/domains-client.js';
import { SegmentsClient } from './clients/segments-client.js';
import { SendingClient } from './clients/sending-client.js';
import { CAMPAIGNS } from './consumer.js';
import { CampaignRuns } from './delivery/campaign-runs.js';
import { CampaignSender } from './delivery/campaign-sender.js';
import { DeliveryController } from './delivery/delivery.controller.js';
import { LedgerHandlers } from './ledger/ledger.handlers.js';
import { campaignsMigrations } from './migrations/index.js';
import { RecipientsController } from './recipients/recipients.controller.js';
import { RecipientsService } from './recipients/recipients.service.js';

export const campaignsSchema = {
  service: CAMPAIGNS,
  entities: [Campaign, CampaignRecipient, Job, ...messagingEntities],
  migrations: campaignsMigrations,
};

/** Campaigns, schedules and the per-recipient delivery ledger (docs/campaigns.md). */
@Module({
  imports: [
    PersistenceModule.forService(campaignsSchema),
    MessagingModule.forService({ service: CAMPAIGNS }),
    JobsModule.forService(CAMPAIGNS, { concurrency: 4 }),
  ],
  controllers: [CampaignsController, DeliveryController, RecipientsController, LedgerHandlers],
  providers: [
    { provide: CAMPAIGNS_SETTINGS, useFactory: () => loadConfig(CampaignsSettings) },
    DomainsClient,
    SegmentsClient,
    SendingClient,
    CampaignsStore,
    CampaignsService,
    CampaignSender,
    CampaignRuns,
    RecipientsService,
  ],
})
export class CampaignsModule {}

export const campaignsService: ServiceDefinition = {
  name: CAMPAIGNS,
  module: CampaignsModule,
  config: CampaignsServiceConfig,
  schema: campaignsSchema,
  projectData: { tables: [CampaignRecipient, Campaign] },
};
