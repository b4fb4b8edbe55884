import { FIXTURES_DIR_DESCRIPTION, NAMED_FILES, defaultFixturesDir, fixtureIn, formatSize } from '../run/files.js';

export const command = 'fixtures';
export const describe = 'Create the small, med, large and huge files (random bytes)';
export const builder = (yargs) =>
  yargs
    .option('fixtures-dir', { type: 'string', describe: 'folder to create them in (yours alone: created 0700)', defaultDescription: FIXTURES_DIR_DESCRIPTION })
    .option('json', { type: 'boolean', describe: 'print the files as JSON' });

export function handler(argv) {
  const dir = argv.fixturesDir ?? defaultFixturesDir();
  const files = Object.entries(NAMED_FILES).map(([name, size]) => ({ name, size, ...fixtureIn(dir, name, size) }));
  const out = argv.context?.stdout ?? process.stdout;
  if (argv.json) return void out.write(`${JSON.stringify(files, null, 2)}\n`);
  for (const file of files) {
    out.write(`${file.name.padEnd(6)} ${formatSize(file.size).padStart(8)}  ${file.path}  ${file.created ? 'created' : 'already there'}\n`);
  }
}
