// Reads results back: a document a measuring command saved (or printed with --json), or the
// results file of a reproduce run. A file is data: it is checked before anything reads it, and
// a bad one is a one-line usage error naming the file and the fix.
import { readFileSync } from 'node:fs';
import { usageError } from '../errors.js';
import { SCHEMA } from '../version.js';
import { parseResultsFile } from './reproduce-file.js';
import { envText } from '../report/point-name.js';
import { firstBadField } from './validate.js';

// trace: an audit (trace --pid, trace -- COMMAND); a traced compare is saved as `compare`
/** @type {unknown[]} */
const COMMANDS = ['compare', 'workers', 'procs', 'sweep', 'advise', 'trace'];

/**
 * A saved file, by kind. Its shape was checked where it matters to every reader (the command,
 * the schema, the part each kind is read by); the rest is as the command saved it.
 * @typedef {import('./reproduce-file.js').ResultsFile} ResultsFile
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
      `${what} is not an mmapbench results document (${why}); pass a file that compare, workers, procs, trace, sweep, advise or reproduce saved`,
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
  const bad = firstBadField(document);
  if (bad)
    throw usageError(
      `${what}: ${bad}; the file was changed or damaged after mmapbench saved it: pass the file as mmapbench saved it (docs/json.md, src/results/results.schema.json)`,
    );
  const kind = kindOf(document);
  return /** @type {Saved} */ ({ kind, path, document });
}

/**
 * @typedef {Exclude<Saved['kind'], 'reproduce'>} DocumentKind  a saved file that is one JSON
 *   document: a compare, workers or procs run (`measure`), a sweep, or an audit
 */

/**
 * What kind of document a command wrote, by its command.
 * @param {{ command: string }} document
 * @returns {DocumentKind}
 */
export const kindOf = ({ command }) =>
  // advise is a sweep of its candidates, with its ranking beside the points
  command === 'sweep' || command === 'advise' ? 'sweep' : command === 'trace' ? 'audit' : 'measure';

/**
 * A document a run has just built, as `report` and `diff` would load it from its file.
 * @param {{ command: string }} document
 * @param {string} [path]
 * @returns {Saved}
 */
export const liveResults = (document, path = 'this run') =>
  /** @type {Saved} */ ({ kind: kindOf(document), path, document });

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

/**
 * What every reader asks of a saved file, answered once per kind: readers ask `readerOf(saved)`
 * rather than telling the kinds apart themselves.
 * @template {Saved} S
 * @typedef {object} Reader
 * @property {(saved: S) => string} command  the command that wrote it
 * @property {(saved: S) => import('../report/document.js').Environment} environment  its machine
 * @property {(saved: S) => string} status  `complete`, or how it did not finish
 * @property {(saved: S) => { protocol?: string, quick?: boolean }} settings  what changes its figures
 * @property {(saved: S) => string} nodes  the Node versions it ran
 * @property {(saved: S) => string | null} tasks  the tasks it ran, for a gate; null: not gated
 * @property {string | null} noRounds  why it has no workers/procs rounds (an audit), or null
 * @property {(saved: S) => string} title  the run in a few words, as a step summary heads it
 * @property {(saved: S) => string | null} resumeWith  how to go on with it when `--resume` of a
 *   measuring command cannot (an audit, a reproduce run, an advise run); null: it can
 */

/** @type {{ [K in Saved['kind']]: Reader<Extract<Saved, { kind: K }>> }} */
const KINDS = {
  measure: {
    command: ({ document }) => document.command,
    environment: ({ document }) => document.environment,
    status: ({ document }) => document.status,
    settings: ({ document }) => document.config,
    nodes: ({ document }) => document.environment.node.version,
    tasks: ({ document }) => document.config.task.name,
    noRounds: null,
    title: ({ document }) => `${document.command} ${document.config.task.name}, k=${document.config.k}`,
    resumeWith: () => null,
  },
  sweep: {
    command: ({ document }) => document.command,
    environment: ({ document }) => document.environment,
    status: ({ document }) => document.status,
    settings: ({ document }) => document.config,
    nodes: ({ document }) => document.axes.node.map((node) => node.version).join(', '),
    tasks: ({ document }) => document.axes.task.join(','),
    noRounds: null,
    title: ({ document }) => document.command,
    resumeWith: ({ document }) =>
      document.command === 'advise' ? 'an advise run, which does not go on: start a new `mmapbench advise`' : null,
  },
  audit: {
    command: () => 'trace',
    environment: ({ document }) => document.environment,
    status: ({ document }) => document.status,
    settings: () => ({}),
    nodes: ({ document }) => document.environment.node.version,
    tasks: () => null,
    noRounds: 'an audit (trace --pid or trace -- COMMAND)',
    title: ({ document }) => `trace pid ${document.target.pid}`,
    resumeWith: () => 'a trace audit; resume it with a new `mmapbench trace`',
  },
  reproduce: {
    command: () => 'reproduce',
    environment: ({ header }) => header.environment,
    status: ({ end }) => end?.status ?? 'incomplete',
    settings: ({ header }) => header.options,
    nodes: ({ header }) => header.environment.node.version,
    tasks: () => null,
    noRounds: null,
    title: () => 'reproduce',
    resumeWith: () => "a reproduce run's results file; resume it with `mmapbench reproduce --resume`",
  },
};

/**
 * The reader of a saved file's kind.
 * @param {Saved} saved
 * @returns {Reader<Saved>}
 */
// the table is keyed by kind, so the reader fits the file it is asked for
export const readerOf = (saved) => /** @type {Reader<Saved>} */ (/** @type {unknown} */ (KINDS[saved.kind]));

/**
 * The facts of a run that can change its figures, as the reader names them.
 * @param {Saved} saved
 * @returns {Record<string, string>}
 */
export function factsOf(saved) {
  const reader = readerOf(saved);
  const env = reader.environment(saved);
  const { protocol, quick } = reader.settings(saved);
  return {
    Node: reader.nodes(saved),
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
