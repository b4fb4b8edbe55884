// Reads results back: a document a measuring command saved (or printed with --json), or the
// results file of a reproduce run. A file is data: it is checked before anything reads it, and
// a bad one is a one-line usage error naming the file and the fix.
import { readFileSync } from 'node:fs';
import { usageError } from '../errors.js';
import { SCHEMA } from '../version.js';
import { parseResultsFile } from '../reproduce/results-file.js';
import { envText } from '../report/point-name.js';

// trace: an audit (trace --pid, trace -- COMMAND); a traced compare is saved as `compare`
/** @type {unknown[]} */
const COMMANDS = ['compare', 'workers', 'procs', 'sweep', 'trace'];

/**
 * A saved file, by kind. Its shape was checked where it matters to every reader (the command,
 * the schema, the part each kind is read by); the rest is as the command saved it.
 * @typedef {import('../reproduce/results-file.js').ResultsFile} ResultsFile
 * @typedef {{ kind: 'measure', path: string, document: import('../report/document.js').ResultsDocument }
 *   | { kind: 'sweep', path: string, document: import('../report/sweep-results.js').SweepDocument }
 *   | { kind: 'audit', path: string, document: import('../report/audit-model.js').AuditDocument }
 *   | { kind: 'reproduce', path: string, header: ResultsFile['header'], records: ResultsFile['records'],
 *       end: ResultsFile['end'] }} Saved
 */

/**
 * @param {string} path
 * @param {string} [what]  how the command names the file in its messages (e.g. `diff BASE`)
 * @returns {Saved}
 */
export function loadResults(path, what = path) {
  let text;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw usageError(
      `${what}: ${error.code === 'ENOENT' ? 'no such file' : error.code === 'EISDIR' ? 'a folder, not a file' : error.message}; pass a results file mmapbench saved (in ./mmapbench-results by default)`,
      error,
    );
  }
  const notOurs = (/** @type {string} */ why) =>
    usageError(
      `${what} is not an mmapbench results document (${why}); pass a file that compare, workers, procs, trace, sweep or reproduce saved`,
    );
  const firstLine = text.slice(0, text.indexOf('\n') + 1 || undefined);
  let reproduceHeader = null;
  try {
    reproduceHeader = JSON.parse(firstLine);
  } catch {}
  if (reproduceHeader?.type === 'run') return reproduceFile(path, text, notOurs);

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
  if (typeof document?.mmapbench !== 'string') throw notOurs('no "mmapbench" version field');
  checkSchema(document, what);
  if (!COMMANDS.includes(document.command)) throw notOurs(`"command" is ${JSON.stringify(document.command)}`);
  const [kind, part, shape] =
    document.command === 'sweep'
      ? ['sweep', 'points', Array.isArray(document.points) && typeof document.axes === 'object']
      : document.command === 'trace'
        ? ['audit', 'trace', typeof document.trace === 'object' && typeof document.target === 'object']
        : ['measure', 'rounds', Array.isArray(document.rounds) && typeof document.config === 'object'];
  if (!shape) throw notOurs(`a ${document.command} document without its ${part}`);
  return /** @type {Saved} */ ({ kind, path, document });
}

/**
 * @param {{ schema?: unknown, mmapbench?: unknown }} document
 * @param {string} what
 */
function checkSchema(document, what) {
  // documents from before the field existed have the first layout
  const schema = /** @type {number} */ (document.schema ?? 1); // checked next
  if (!Number.isInteger(schema) || schema < 1) throw usageError(`${what} has an invalid "schema" (${schema})`);
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
 * @returns {Saved}
 */
function reproduceFile(path, text, notOurs) {
  const { header, records, end } = parseResultsFile(text, notOurs);
  if (typeof header.environment !== 'object') throw notOurs('a run header without its environment');
  checkSchema(header, path);
  return { kind: /** @type {const} */ ('reproduce'), path, header, records, end };
}

/** `KEY=VALUE KEY=VALUE`, sorted: environment variables as one comparable string. */
/**
 * The facts of a run that can change its figures, as the reader names them.
 * @param {Saved} saved
 * @returns {Record<string, string>}
 */
export function factsOf(saved) {
  const env = saved.kind === 'reproduce' ? saved.header.environment : saved.document.environment;
  /** @type {{ protocol?: string, quick?: boolean }} */
  const config = saved.kind === 'measure' || saved.kind === 'sweep' ? saved.document.config : {};
  /** @type {{ protocol?: string, quick?: boolean }} */
  const options = saved.kind === 'reproduce' ? saved.header.options : {};
  const nodes =
    saved.kind === 'sweep' ? saved.document.axes.node.map((node) => node.version).join(', ') : env.node.version;
  return {
    Node: nodes,
    kernel: env.kernel,
    glibc: env.glibc ?? 'n/a',
    CPU: env.cpu.model ?? 'unknown',
    cores: `${env.cpu.logicalCores} logical, ${env.cpu.physicalCores} physical`,
    THP: env.thp ?? 'n/a',
    'libuv pool': String(env.uvThreadpoolSize ?? 'n/a'),
    'allocator env': envText(env.allocatorEnv) || 'none',
    protocol: config.protocol ?? options.protocol ?? 'steady',
    '--quick': (config.quick ?? options.quick) ? 'yes (not a measurement)' : 'no',
  };
}
