import { tableName } from '@herald/persistence';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { ProjectSetup } from './project-setup.entity.js';

/** The projects' onboarding facts (`project_setup`), built from other services' events. */
@Injectable()
export class ProjectSetupStore {
  /**
   * Notes when each project's first contact was created (`firstAt[i]` for `projectIds[i]`), with one
   * insert; a project already noted keeps its time (the first event seen wins).
   */
  async noteFirstContacts(manager: EntityManager, projectIds: string[], firstAt: string[]): Promise<void> {
    await manager.query(
      // DO NOTHING takes no row lock: a burst of contact.created (an import) does not queue on this row.
      `INSERT INTO ${tableName(manager, ProjectSetup)} (project_id, first_contact_at)
       SELECT * FROM unnest($1::varchar[], $2::timestamptz[]) ON CONFLICT (project_id) DO NOTHING`,
      [projectIds, firstAt],
    );
  }
}
