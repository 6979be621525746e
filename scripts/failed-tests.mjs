// Prints what failed in a Jest run, from its `--json` results: each failed test (or a file that failed
// outside a test, e.g. in beforeAll) with the head of its message. scripts/test.sh prints it last, so
// the end of a long CI log names the failure even when the log is cut.
// Usage: node scripts/failed-tests.mjs <results.json>
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';

const HEAD_LINES = 25;
const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g'); // colour codes

const file = process.argv[2];
if (!file) throw new Error('usage: node scripts/failed-tests.mjs <results.json>');

let results;
try {
  results = JSON.parse(readFileSync(file, 'utf8'));
} catch (err) {
  console.log(`(no Jest results to summarise in ${file}: ${err instanceof Error ? err.message : String(err)})`);
  process.exit(0);
}

const head = (text) =>
  text
    .replace(ANSI, '')
    .split('\n')
    .filter((line) => line.trim() !== '' && !/^\s*at .*(node_modules|node:internal|<anonymous>)/.test(line))
    .slice(0, HEAD_LINES)
    .map((line) => `    ${line}`)
    .join('\n');

const failures = [];
for (const suite of results.testResults ?? []) {
  const where = relative(process.cwd(), suite.name); // (e2e titles name their mode)
  const failed = (suite.assertionResults ?? []).filter((t) => t.status === 'failed');
  for (const t of failed) failures.push(`${where} › ${t.fullName}\n${head((t.failureMessages ?? []).join('\n'))}`);
  if (failed.length === 0 && suite.status === 'failed') failures.push(`${where}\n${head(suite.message ?? '')}`);
}

console.log(
  `${results.numFailedTests ?? 0} failed test(s) in ${results.numFailedTestSuites ?? 0} file(s)` +
    (failures.length > 0 ? `:\n\n${failures.join('\n\n')}` : ''),
);
