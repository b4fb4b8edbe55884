// Reads results back: a document a measuring command saved (or printed with --json), or the
// results file of a reproduce run. A file is data: it is checked before anything reads it, and
// a bad one is a one-line usage error naming the file and the fix.
import { usageError } from '../errors.js';
import { readUserFile } from '../system/safe-fs.js';
import { MAX_RESULTS_BYTES } from './out.js';
import { SCHEMA } from '../version.js';
import { parseResultsFile } from './reproduce-file.js';
import { envText } from '../points/point-name.js';
import { firstBadField, MAX_DEPTH, nestsDeeperThan, quoted } from './validate.js';

/**
 * A saved file: its kind (src/kinds/: what every reader asks of it, answered once per kind), where
 * it is, and its document: what the command saved, or a reproduce run's header, records and end.
 * @typedef {import('../kinds/kind.js').Kind} Kind
 * @typedef {import('./reproduce-file.js').ResultsFile} ResultsFile
 * @typedef {{ kind: Kind, path: string, document: any }} Saved
 */

/**
 * @param {string} path
 * @param {string} what  how the command names the file in its messages (e.g. `diff BASE`)
 * @param {Kind[]} kinds  the kinds of saved file there are (src/kinds/index.js)
 * @returns {Saved}
 */
export function readSaved(path, what, kinds) {
  const text = readUserFile(path, MAX_RESULTS_BYTES, (problem, cause) =>
    usageError(`${what}: ${problem}; pass a results file mmapbench saved (in ./mmapbench-results by default)`, cause),
  );
  const notOurs = (/** @type {string} */ why) =>
    usageError(
      `${what} is not an mmapbench results document (${why}); pass a file that compare, workers, procs, trace, sweep, advise or reproduce saved`,
    );
  const firstLine = text.slice(0, text.indexOf('\n') + 1 || undefined);
  let reproduceHeader = null;
  try {
    reproduceHeader = JSON.parse(firstLine);
  } catch {}
  if (reproduceHeader?.type === 'run')
    return { kind: kindNamed(kinds, 'reproduce'), path, document: reproduceFile(path, text, notOurs) };

  let document;
  try {
    document = JSON.parse(text);
  } catch (error) {
    throw text.trimStart().startsWith('{')
      ? usageError(
          `${what} is cut off or damaged (${error.message}); a saved file is written whole, so pass the file as mmapbench saved it`,
        )
      : notOurs('not JSON');
  }
  if (nestsDeeperThan(document)) throw notOurs(`nested more than ${MAX_DEPTH} deep`);
  if (typeof document?.mmapbench !== 'string') throw notOurs('no "mmapbench" version field');
  checkSchema(document, what);
  const kind = kinds.find((one) => one.commands.includes(document.command));
  if (!kind) throw notOurs(`"command" is ${quoted(document.command)}`);
  const bad = firstBadField(document);
  if (bad)
    throw usageError(
      `${what}: ${bad}; the file was changed or damaged after mmapbench saved it: pass the file as mmapbench saved it (docs/json.md, src/saved/results.schema.json)`,
    );
  return { kind, path, document };
}

const kindNamed = (/** @type {Kind[]} */ kinds, /** @type {string} */ name) =>
  /** @type {Kind} */ (kinds.find((kind) => kind.name === name));

/**
 * @param {{ schema?: unknown, mmapbench?: unknown }} document
 * @param {string} what
 */
function checkSchema(document, what) {
  // documents from before the field existed have the first layout
  const schema = /** @type {number} */ (document.schema ?? 1); // checked next
  if (!Number.isInteger(schema) || schema < 1) throw usageError(`${what} has an invalid "schema" (${quoted(schema)})`);
  if (schema > SCHEMA)
    throw usageError(
      `${what} is from a newer mmapbench (${document.mmapbench}, results schema ${schema}; this one reads schema ${SCHEMA}); upgrade mmapbench to read it`,
    );
}

/**
 * A reproduce results file: its header, its whole records, and how the run ended, if it did.
 * @param {string} path
 * @param {string} text
 * @param {(why: string) => Error} notOurs
 * @returns {Pick<ResultsFile, 'header' | 'records' | 'end'>}
 */
function reproduceFile(path, text, notOurs) {
  const { header, records, end } = parseResultsFile(text, notOurs);
  if (typeof header.environment !== 'object') throw notOurs('a run header without its environment');
  checkSchema(header, path);
  return { header, records, end };
}

/**
 * The facts of a run that can change its figures, as the reader names them.
 * @param {Saved} saved
 * @returns {Record<string, string>}
 */
export function factsOf(saved) {
  const { kind, document } = saved;
  const env = kind.environment(document);
  const { protocol, quick } = kind.settings(document);
  return {
    Node: kind.nodes(document),
    kernel: env.kernel,
    glibc: env.glibc ?? 'n/a',
    CPU: env.cpu.model ?? 'unknown',
    cores: `${env.cpu.logicalCores} logical, ${env.cpu.physicalCores} physical`,
    THP: env.thp ?? 'n/a',
    'libuv pool': String(env.uvThreadpoolSize ?? 'n/a'),
    'allocator env': envText(env.allocatorEnv) || 'none',
    protocol: protocol ?? 'steady',
    '--quick': quick ? 'yes (not a measurement)' : 'no',
  };
}
