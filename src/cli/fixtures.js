import { FIXTURES_DIR_DESCRIPTION, NAMED_FILES, defaultFixturesDir, fixtureIn } from '../run/fixtures.js';
import { formatSize } from '../words/spelling.js';
import { columnLines } from '../view/table.js';
import { COMMON } from '../core/options.js';
import { declare, readOptions } from '../core/option-spec.js';

const SPECS = {
  ...COMMON,
  fixturesDir: {
    takes: 'dir',
    describe: `folder to create them in, yours alone (created 0700) (default: ${FIXTURES_DIR_DESCRIPTION})`,
  },
  json: { kind: /** @type {const} */ ('flag'), describe: 'print the files as JSON' },
};

export const builder = (/** @type {import('yargs').Argv} */ yargs) => declare(yargs, SPECS);

/**
 * @param {Record<string, any>} argv  yargs' parsed arguments, read by readOptions
 * @param {import('./context.js').Context} [context]
 */
export function handler(argv, context = {}) {
  const opts = readOptions(argv, SPECS, 'fixtures');
  const dir = opts.fixturesDir ?? defaultFixturesDir();
  const files = Object.entries(NAMED_FILES).map(([name, size]) => ({ name, size, ...fixtureIn(dir, name, size) }));
  const out = context.stdout ?? process.stdout;
  if (opts.json) return void out.write(`${JSON.stringify(files, null, 2)}\n`);
  const rows = files.map((file) => [
    file.name,
    formatSize(file.size),
    file.path,
    file.created ? 'created' : 'already there',
  ]);
  for (const line of columnLines(rows, { align: ['left', 'right'] })) out.write(`${line}\n`);
}
