import type { ServiceDefinition } from '@herald/core';
import { messagingEntities, MessagingModule } from '@herald/messaging';
import { PersistenceModule } from '@herald/persistence';
import { Module } from '@nestjs/common';
import { CAMPAIGNS } from './consumer.js';
import { campaignsMigrations } from './migrations/index.js';

const schema = { service: CAMPAIGNS, entities: [...messagingEntities], migrations: campaignsMigrations };

/** Campaigns, schedules and the per-recipient send ledger. */
@Module({
  imports: [PersistenceModule.forService(schema), MessagingModule.forService({ service: CAMPAIGNS })],
})
export class CampaignsModule {}

export const campaignsService: ServiceDefinition = { name: CAMPAIGNS, module: CampaignsModule, defaultPort: 3003, schema };
