import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { getMetadataStorage } from 'class-validator';

/**
 * Every setting is validated and documented: product code reads the environment only through a
 * settings class (`loadConfig`, libs/core/src/load-config.ts), and the README's configuration table
 * names every setting of every settings class.
 */
const root = fileURLToPath(new URL('../../', import.meta.url));

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : tsFiles(path);
    return e.name.endsWith('.ts') ? [relative(root, path)] : [];
  });
}

/** Product code: what dist/ and the images ship (specs, their support files and libs/testing aside). */
const product = ['libs', 'apps']
  .flatMap((dir) => tsFiles(join(root, dir)))
  .filter((file) => !file.startsWith('libs/testing/') && !/\.spec(-support)?\.ts$/.test(file));

/**
 * The only product files that touch `process.env`, why, and the variables each reads by name (none:
 * the environment is handed on whole).
 */
const ALLOWED_ENV_ACCESS: Record<string, { why: string; reads: string[] }> = {
  'libs/core/src/load-config.ts': { why: 'loadConfig: every setting goes through a settings class', reads: [] },
  'libs/core/src/logger.ts': {
    why: 'the log level before any configuration is loaded; configureLogging applies the validated LOG_LEVEL at boot',
    reads: ['LOG_LEVEL'],
  },
  'libs/persistence/src/embedded/credentials.ts': {
    why: "the environment handed whole to the embedded PostgreSQL's child process",
    reads: [],
  },
  'libs/runtime/src/topics-command.ts': {
    why: 'the environment handed to loadConfig(KafkaTopicsConfig)',
    reads: [],
  },
};

const ENV_ACCESS = /process\s*\.\s*env\b|process\s*\[\s*['"]env['"]\s*\]|\{[^}]*\benv\b[^}]*\}\s*=\s*process\b/;
const NAMED_READ = /process\s*\.\s*env\s*(?:\.\s*([A-Za-z_][A-Za-z0-9_]*)|\[\s*['"]([A-Za-z_][A-Za-z0-9_]*)['"]\s*\])/g;

/** Where a source touches the environment, and the variables it names. */
export function environmentAccess(source: string): { touches: boolean; reads: string[] } {
  const code = source.replace(/\/\*[\s\S]*?\*\/|(^|[^:])\/\/.*$/gm, '$1'); // comments do not count
  return {
    touches: ENV_ACCESS.test(code),
    reads: [...code.matchAll(NAMED_READ)].map((m) => (m[1] ?? m[2])!),
  };
}

describe('product code reads the environment only through settings classes', () => {
  it('sees every form of access (the rule below can fail)', () => {
    expect(environmentAccess('const x = process.env.WORKFLOWS_RUNTIME;')).toEqual({
      touches: true,
      reads: ['WORKFLOWS_RUNTIME'],
    });
    expect(environmentAccess("if (process.env['FOO'] === 'off') {}").reads).toEqual(['FOO']);
    expect(environmentAccess('const { env } = process;').touches).toBe(true);
    expect(environmentAccess('// process.env.X is read by loadConfig').touches).toBe(false);
    expect(environmentAccess('loadConfig(Settings)').touches).toBe(false);
  });

  it('no product file touches process.env but the allowed ones, each reading only the variables listed', () => {
    expect(product.length).toBeGreaterThan(100);
    const found: Record<string, string[]> = {};
    for (const file of product) {
      const access = environmentAccess(readFileSync(join(root, file), 'utf8'));
      if (access.touches) found[file] = [...new Set(access.reads)].sort();
    }
    const unexpected = Object.entries(found)
      .filter(
        ([file, reads]) => !ALLOWED_ENV_ACCESS[file] || reads.some((r) => !ALLOWED_ENV_ACCESS[file]!.reads.includes(r)),
      )
      .map(([file, reads]) => `${file}${reads.length ? ` reads ${reads.join(', ')}` : ''}`);
    // a read belongs in a settings class (validated, documented in the README); a true exception goes
    // in ALLOWED_ENV_ACCESS with its reason
    expect(unexpected).toEqual([]);
    // and the list names no file that no longer needs it
    expect(Object.keys(ALLOWED_ENV_ACCESS).filter((file) => !found[file])).toEqual([]);
  });
});

// ----------------------------------------------------------------------------- README table

/** A settings class: validated properties, all named like environment variables. */
type SettingsClass = { name: string; file: string; settings: string[] };
const VARIABLE = /^[A-Z][A-Z0-9_]*$/;

async function settingsClasses(): Promise<SettingsClass[]> {
  const storage = getMetadataStorage();
  const candidates = product.filter((file) => {
    const source = readFileSync(join(root, file), 'utf8');
    return source.includes("from 'class-validator'") && /^\s+(?:@\S+\s+)*[A-Z][A-Z0-9_]+[!?]?:/m.test(source);
  });
  const classes: SettingsClass[] = [];
  for (const file of candidates) {
    const mod = (await import(pathToFileURL(join(root, file)).href)) as Record<string, unknown>;
    for (const [name, value] of Object.entries(mod)) {
      if (typeof value !== 'function') continue;
      const props = [
        ...new Set(
          storage.getTargetValidationMetadatas(value as new () => object, '', true, false).map((m) => m.propertyName),
        ),
      ];
      if (props.length > 0 && props.every((p) => VARIABLE.test(p))) classes.push({ name, file, settings: props });
    }
  }
  return classes;
}

/** Names in the first column of the README's tables under "## Configuration". */
function readmeSettings(): Set<string> {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const start = readme.indexOf('\n## Configuration');
  const end = readme.indexOf('\n## ', start + 1);
  const section = readme.slice(start, end < 0 ? undefined : end);
  const names = new Set<string>();
  for (const line of section.split('\n')) {
    if (!line.startsWith('| `')) continue;
    for (const [, name] of line.split('|')[1]!.matchAll(/`([A-Z][A-Z0-9_]*)`/g)) names.add(name!);
  }
  return names;
}

describe("the README's configuration table", () => {
  it('lists every setting of every settings class', async () => {
    const classes = await settingsClasses();
    // the classes the processes load: not vacuous
    expect(classes.map((c) => c.name)).toEqual(
      expect.arrayContaining(['ServiceConfig', 'StandaloneConfig', 'WebhooksSettings', 'MetricsSettings']),
    );
    const documented = readmeSettings();
    const missing = classes.flatMap((c) =>
      c.settings.filter((s) => !documented.has(s)).map((s) => `${s} (${c.name}, ${c.file})`),
    );
    expect([...new Set(missing)]).toEqual([]);
  });
});
