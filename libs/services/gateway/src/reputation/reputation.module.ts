import { Module } from '@nestjs/common';
import { GatewayCoreModule } from '../gateway-core.module.js';
import { ProjectsModule } from '../projects/projects.module.js';
import { ReputationService } from './reputation.service.js';
import { ReputationStore } from './reputation.store.js';
import { SecurityController } from './security.controller.js';

/** Sender reputation: bounce and complaint rates per project, the suspensions they cause and their lift. */
@Module({
  imports: [GatewayCoreModule, ProjectsModule],
  controllers: [SecurityController],
  providers: [ReputationStore, ReputationService],
  exports: [ReputationService],
})
export class ReputationModule {}
