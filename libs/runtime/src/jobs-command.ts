import { configureLogging, loadConfig, MigrateConfig, type ServiceDefinition } from '@herald/core';
import { runJobsCommand } from '@herald/jobs';
import { createServiceDataSource } from '@herald/persistence';

/**
 * `main.js jobs list|retry …` for one service, with the settings of `main.js migrate` (DATABASE_URL,
 * LOG_LEVEL): an operator lists the dead-lettered jobs and puts one back in its queue, from the
 * service's own image (`kubectl exec`, `docker compose exec`). Returns the exit code.
 */
export async function runServiceJobsCommand(
  def: ServiceDefinition,
  args: string[],
  load: () => MigrateConfig = () => loadConfig(MigrateConfig),
): Promise<number> {
  const config = load();
  configureLogging(config.LOG_LEVEL);
  const ds = await createServiceDataSource(def.schema, config.DATABASE_URL, 1).initialize();
  try {
    return await runJobsCommand(def.name, ds, args, (line) => process.stdout.write(`${line}\n`));
  } finally {
    await ds.destroy();
  }
}
