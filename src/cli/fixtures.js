import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_FIXTURES_DIR, NAMED_FILES, ensureFixture, formatSize } from '../run/files.js';

export const command = 'fixtures';
export const describe = 'Create the small, med, large and huge files (random bytes)';
export const builder = (yargs) =>
  yargs
    .option('fixtures-dir', { type: 'string', describe: 'folder to create them in', default: DEFAULT_FIXTURES_DIR })
    .option('json', { type: 'boolean', describe: 'print the files as JSON' });

export function handler(argv) {
  mkdirSync(argv.fixturesDir, { recursive: true });
  const files = Object.entries(NAMED_FILES).map(([name, size]) => {
    const path = join(argv.fixturesDir, name);
    return { name, size, path, created: ensureFixture(path, size) };
  });
  const out = argv.context?.stdout ?? process.stdout;
  if (argv.json) return void out.write(`${JSON.stringify(files, null, 2)}\n`);
  for (const file of files) {
    out.write(`${file.name.padEnd(6)} ${formatSize(file.size).padStart(8)}  ${file.path}  ${file.created ? 'created' : 'already there'}\n`);
  }
}
