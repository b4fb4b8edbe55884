import { writeFileSync } from 'node:fs';
import { checkSchema, upgradedHeader } from './migrate.js';
import { dirname } from 'node:path';
import { usageError } from '../errors.js';
import { appendOwnFile, fileError, makeFolder, readUserFile } from '../system/safe-fs.js';
import { MAX_RESULTS_BYTES } from './out.js';
import { changedFile, firstBadField, longString, printable, MAX_DEPTH, nestsDeeperThan } from './validate.js';
import { pointOf } from '../points/points.js';

/**
 * @typedef {object} ReproduceOptions  what a run was asked for; kept in the results file's header
 * @property {number} k
 * @property {boolean} quick
 * @property {number|null} rounds  fixed rounds, or null: ROUNDS.min, then until every claim's
 *   interval is within ±precision, at most maxRounds
 * @property {number} [precision]  the relative half-width every claim's interval must reach
 * @property {number} maxRounds
 * @property {number} duration  seconds per cell when not quick
 * @property {number} timeout
 * @property {string|undefined} node
 * @property {string|undefined} fixturesDir
 * @property {string|undefined} jemalloc
 * @property {string} thpPath
 * @property {string[]} experiments
 * @property {'fresh'|'steady'|'published'|'both'} [protocol]  how cells are measured and read (protocols.js)
 *
 * @typedef {{ label: string, path: string | null, version: string | null, hasOption: boolean,
 *   why: string | null, install?: string }} FixNode  a Node node-fix runs on: why it has no path
 *   (not installed, offline) or lacks readFileSync's buffer option; install: the release a run
 *   would install first (--list looks in the cache only)
 */

/**
 * What a results file holds: a header, then records, and an `end` per run that got that far.
 * @typedef {{ mmapbench: string, schema: number, started: string, options: ReproduceOptions,
 *   environment: import('../document/document.js').Environment, jemalloc: string | null,
 *   nodes: FixNode[] }} RunHeader  nodes: what node-fix ran on (none without --node)
 * @typedef {{ type: 'cell', experiment: string, variant: string, round: number,
 *   mode: 'workers'|'procs', cell: import('../stats/cell-summary.js').CellResult }} CellRecord
 * @typedef {{ type: 'calibration', experiment: string, variant: string, iterations: number,
 *   warmup: import('../run/plan.js').Warmup, calibration: import('../run/calibrate.js').Calibration }} CalibrationRecord
 * @typedef {CellRecord | CalibrationRecord} ResultRecord
 * @typedef {{ type: 'end', status: string, skipped: Array<{ name: string, reason: string }> }} EndRecord
 * @typedef {{ header: RunHeader, records: ResultRecord[], cutLines: number, end: EndRecord | null }} ResultsFile
 */

/**
 * The raw results of a reproduce run, one JSON record per line: a `run` header, then a
 * `calibration` per variant and a `cell` per finished cell, each appended (and flushed by the
 * kernel's page cache, which survives the process) the moment it exists. A kill loses at most
 * the cell that was running.
 * @param {string} path
 * @param {RunHeader} header
 */
export function createResultsFile(path, header) {
  try {
    makeFolder(dirname(path));
  } catch (error) {
    throw fileError(error, dirname(path), '--out');
  }
  try {
    // wx: a new file, never one planted under this name
    writeFileSync(path, `${JSON.stringify({ type: 'run', ...header })}\n`, { flag: 'wx', mode: 0o644 });
  } catch (error) {
    throw error.code === 'EEXIST'
      ? usageError(`${path} already exists; a new run never writes over results`, error)
      : fileError(error, path, '--out');
  }
}

/**
 * @param {string} path
 * @param {ResultRecord | EndRecord} record
 */
export function appendRecord(path, record) {
  appendLine(path, `${JSON.stringify(record)}\n`);
}

/**
 * @param {string} path
 * @param {string} text
 */
function appendLine(path, text) {
  try {
    appendOwnFile(path, text);
  } catch (error) {
    throw error.kind ? error : fileError(error, path, '--out');
  }
}

/** @type {unknown[]} */
const RECORD_TYPES = ['cell', 'calibration'];
// how a run ended (its status and the experiments it skipped), appended after its last cell;
// a resumed run appends another, and the last one counts
const END = 'end';

/**
 * Reads a results file for --resume, writing nothing: the caller checks the header before it
 * trusts the file, then calls `mend()` so the records appended next start on a line of their
 * own. A line cut off by a kill stays in the file (nothing is ever truncated) and is skipped.
 * @param {string} path
 * @returns {ResultsFile & { mend: () => void }}
 */
export function readResultsFile(path) {
  const text = readUserFile(path, MAX_RESULTS_BYTES, (problem, cause) =>
    usageError(`--resume ${path}: ${problem}; pass the results file a reproduce run wrote`, cause),
  );
  const parsed = parseResultsFile(
    text,
    (why) => usageError(`--resume ${path}: ${why}; the file is not one mmapbench reproduce wrote`),
    `--resume ${path}`,
  );
  checkSchema(parsed.header, `--resume ${path}`);
  return { ...parsed, mend: () => !text.endsWith('\n') && appendLine(path, '\n') };
}

/**
 * A results file's text: its header, its whole records, how many lines a kill cut off, and how
 * the run ended (its last `end` record), for --resume and for `report` and `diff`.
 * @param {string} text
 * @param {(why: string) => Error} notOurs  the error for a file that is not a results file
 * @param {string} [what]  how the command names the file in its messages (`report FILE`)
 * @returns {ResultsFile}  its records as they were written: each checked for its type and
 *   experiment, the header's options checked by whoever runs them (commands/reproduce/options.js)
 */
export function parseResultsFile(text, notOurs, what = 'the results file') {
  const lines = text.split('\n');
  let header;
  try {
    header = JSON.parse(lines[0]);
  } catch {
    throw notOurs('line 1 is not JSON');
  }
  if (nestsDeeperThan(header)) throw notOurs(`line 1 nests more than ${MAX_DEPTH} deep`);
  const long = longString(header);
  if (long) throw notOurs(`line 1's ${long.field} is ${long.length} characters long`);
  if (header?.type !== 'run' || typeof header.options !== 'object' || header.options === null)
    throw notOurs('no run header on line 1');
  // a newer layout is named as one before any of its fields is read as this one's
  checkSchema(header, what);
  const badHeader = firstBadField(header, 'reproduceHeader');
  if (badHeader) throw changedFile(what, `line 1's ${badHeader}`);

  /** @type {ResultRecord[]} */
  const records = [];
  let cutLines = 0;
  /** @type {EndRecord | null} */
  let end = null;
  for (const [index, line] of lines.slice(1).entries()) {
    if (!line) continue;
    let record;
    try {
      record = JSON.parse(line);
    } catch {
      cutLines++; // a record cut off by a kill, mended with a newline on an earlier resume
      continue;
    }
    if (nestsDeeperThan(record)) throw notOurs(`line ${index + 2} nests more than ${MAX_DEPTH} deep`);
    const long = longString(record);
    if (long) throw notOurs(`line ${index + 2}'s ${long.field} is ${long.length} characters long`);
    if (record?.type === END) {
      end = record;
      continue;
    }
    if (!RECORD_TYPES.includes(record?.type) || typeof record.experiment !== 'string')
      throw notOurs(`line ${index + 2} is not a record`);
    // every figure a reader computes from, as the schema has it
    const bad = firstBadField(record, 'reproduceRecord');
    if (bad) throw changedFile(what, `line ${index + 2}'s ${bad}`);
    records.push(record);
  }
  // what a file says is printed, never obeyed by the terminal
  return printable({ header: upgradedHeader(header), records, cutLines, end });
}

/**
 * A reproduce run's points: one per experiment and setting, its rounds gathered from the cell
 * records.
 * @param {Pick<ResultsFile, 'header' | 'records'>} file
 * @returns {import('../points/points.js').Point[]}
 */
export const reproducePoints = ({ header, records }) => {
  /** @type {Map<string, { experiment: string, variant: string, rounds: Map<number, import('../points/points.js').Round> }>} */
  const settings = new Map();
  for (const record of records) {
    if (record.type !== 'cell') continue;
    const { experiment, variant } = record;
    const id = `${experiment}/${variant}`;
    const setting = settings.get(id) ?? { experiment, variant, rounds: new Map() };
    settings.set(id, setting);
    const round = setting.rounds.get(record.round) ?? {};
    setting.rounds.set(record.round, round);
    round[record.mode] = record.cell;
  }
  return [...settings].map(([id, { experiment, variant, rounds }]) =>
    pointOf({ experiment, variant, task: '', k: header.options.k }, [...rounds.values()], { id }),
  );
};
