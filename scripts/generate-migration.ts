/**
 * Generates a service's next migration from the difference between its entities and what its
 * committed migrations produce: `npm run migration:generate -- <service> <what-changes>`.
 * Works on a scratch database (DATABASE_URL's server, or an embedded PostgreSQL) that it drops.
 */
import 'reflect-metadata';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import {
  createServiceDataSource,
  migrateServiceSchema,
  pendingSchemaChanges,
  startEmbeddedPostgres,
} from '@herald/persistence';
import { serviceNamed } from '@herald/service-catalog';

const [service, what] = process.argv.slice(2);
if (!service || !what || !/^[a-z0-9-]+$/.test(what)) {
  console.error('usage: npm run migration:generate -- <service> <what-changes-in-kebab-case>');
  process.exit(2);
}
const def = serviceNamed(service);

let stopEmbedded: (() => Promise<void>) | undefined;
let serverUrl = process.env.DATABASE_URL;
if (!serverUrl) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'herald-migrations-'));
  await chmod(dir, 0o755); // the embedded server runs as the postgres user, which must reach its data
  const embedded = await startEmbeddedPostgres({ dataDir: path.join(dir, 'pg') });
  serverUrl = embedded.url;
  stopEmbedded = async () => {
    await embedded.stop();
    await rm(dir, { recursive: true, force: true });
  };
}
const scratch = `herald_migration_${Date.now()}`;
const admin = new pg.Client({ connectionString: serverUrl });
await admin.connect();
await admin.query(`CREATE DATABASE ${scratch}`);
const url = new URL(serverUrl);
url.pathname = `/${scratch}`;
try {
  const ds = await createServiceDataSource(def.schema, url.toString(), 2).initialize();
  await migrateServiceSchema(ds);
  const { up, down } = await pendingSchemaChanges(ds);
  await ds.destroy();
  if (up.length === 0) {
    console.log(`${service}: entities and migrations agree; nothing to generate`);
  } else {
    const timestamp = Date.now();
    const className = `${what.replace(/(^|-)([a-z0-9])/g, (_, __, c: string) => c.toUpperCase())}${timestamp}`;
    const dir = path.resolve('libs/services', service, 'src/migrations');
    const file = `${timestamp}-${what}`;
    const literal = (sql: string) => `\`${sql.replace(/\\/g, '\\\\').replace(/`/g, '\\`').replace(/\$\{/g, '\\${')}\``;
    const q = (sql: string) => `    await queryRunner.query(${literal(sql)});`;
    await writeFile(
      path.join(dir, `${file}.ts`),
      `import type { MigrationInterface, QueryRunner } from 'typeorm';

export class ${className} implements MigrationInterface {
  name = '${className}';

  async up(queryRunner: QueryRunner): Promise<void> {
${up.map(q).join('\n')}
  }

  async down(queryRunner: QueryRunner): Promise<void> {
${[...down].reverse().map(q).join('\n')}
  }
}
`,
    );
    const indexFile = path.join(dir, 'index.ts');
    const index = await readFile(indexFile, 'utf8');
    const listName = /export const (\w+)/.exec(index)![1]!;
    const imports = [...index.matchAll(/^import .*$/gm)].map((m) => m[0]);
    const entries = /=\s*\[([^\]]*)\]/
      .exec(index)![1]!
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    imports.push(`import { ${className} } from './${file}.js';`);
    entries.push(className);
    await writeFile(
      indexFile,
      `${imports.join('\n')}\n\n/** Committed migrations of the ${service} schema, oldest first. Never edit one that has landed. */\n` +
        `// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type\nexport const ${listName}: Function[] = [\n${entries.map((e) => `  ${e},`).join('\n')}\n];\n`,
    );
    console.log(`${service}: wrote ${path.relative(process.cwd(), path.join(dir, file))}.ts (${up.length} statements)`);
  }
} finally {
  await admin.query(`DROP DATABASE IF EXISTS ${scratch} WITH (FORCE)`);
  await admin.end();
  await stopEmbedded?.();
}
