// What `--export FORMAT=FILE` may name, checked when the command line is read: the formats'
// names and the request, with none of the exporters, which load only when a run exports.
import { statSync } from 'node:fs';
import { dirname } from 'node:path';
import { usageError } from '../errors.js';
import { checkOutput, specialFile } from '../system/safe-fs.js';

/** The dashboards' formats (export.js has an exporter for each; a test checks they agree). */
export const FORMATS = ['github-action-benchmark', 'bencher'];

/** @typedef {string} Format  one of FORMATS, checked by readExports */
/** @typedef {{ format: Format, file: string }} ExportRequest */
/**
 * `--export FORMAT=FILE`, checked before anything is measured: a known format, and a file whose
 * folder exists and which, when it exists, is a regular file.
 * @param {string[]} values  as typed, in order
 * @returns {ExportRequest[]}
 */
export function readExports(values) {
  return values.map((typed) => {
    const at = typed.indexOf('=');
    const format = at > 0 ? typed.slice(0, at) : '';
    const file = at > 0 ? typed.slice(at + 1) : '';
    if (!file) throw usageError(`--export ${typed} is invalid: it must be FORMAT=FILE, such as bencher=bench.json`);
    if (!FORMATS.includes(format))
      throw usageError(`--export ${typed}: unknown format '${format}'; it must be one of ${FORMATS.join(', ')}`);
    const folder = dirname(file);
    let folderStats;
    try {
      folderStats = statSync(folder);
    } catch {
      throw usageError(`--export ${typed}: the folder ${folder} does not exist; create it or export elsewhere`);
    }
    if (!folderStats.isDirectory())
      throw usageError(`--export ${typed}: ${folder} is not a folder; export into a folder`);
    if (specialFile(file) === 'a folder') throw usageError(`--export ${typed}: ${file} is a folder; name a file in it`);
    // a link, a device or a FIFO would be replaced by the rename that writes the file (as root,
    // /dev/stdout or /dev/full): each is refused and left as it is
    checkOutput(file, `--export ${typed}: ${file}`);
    return { format: /** @type {Format} */ (format), file };
  });
}
