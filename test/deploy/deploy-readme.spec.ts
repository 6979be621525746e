import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { requiredVariables, ServiceConfig } from '@herald/core';
import { serviceNamed } from '@herald/service-catalog';

/** deploy/README.md's variable table names every variable a service process requires at boot. */
const root = fileURLToPath(new URL('../..', import.meta.url));
const apps = readdirSync(path.join(root, 'apps'), { withFileTypes: true })
  .filter(
    (d) => d.isDirectory() && d.name !== 'standalone' && existsSync(path.join(root, 'apps', d.name, 'src', 'main.ts')),
  )
  .map((d) => d.name);

/** Variables named in the first column of the table's rows (`<SERVICE>_URL` stands for the gateway's upstreams). */
function documented(): Set<string> {
  const readme = readFileSync(path.join(root, 'deploy', 'README.md'), 'utf8');
  const names = new Set<string>();
  for (const line of readme.split('\n')) {
    if (!line.startsWith('| `')) continue;
    for (const [, name] of line.split('|')[1]!.matchAll(/`([A-Z0-9_<>]+)`/g)) names.add(name!);
  }
  return names;
}

describe('deploy/README.md', () => {
  it.each(apps)('lists every variable %s requires', (app) => {
    const names = documented();
    const required = requiredVariables((serviceNamed(app).config ?? ServiceConfig) as new () => object);
    const missing = required.filter((v) => !names.has(v) && !(names.has('<SERVICE>_URL') && /^[A-Z]+_URL$/.test(v)));
    expect(missing).toEqual([]);
  });
});
