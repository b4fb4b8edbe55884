// A document saved by an earlier mmapbench, brought to the layout this one writes (SCHEMA) one
// step at a time, when it is loaded (after the results schema has checked its shape): every
// reader after this sees one layout. A step fills what a later mmapbench always writes with the
// value that says what the earlier one did (advise ranked by throughput, a sweep ran one cycle);
// it never turns a figure into one that means something else. Such figures, and the sentences
// early files kept, stay under their own names: points/measures.js shows the figures apart;
// commands/compare/words.js (the verdict, what next), document/sentences.js (the account's
// words) and cli/finish.js (the gate's line) print the sentences as they were saved.
import { usageError } from '../errors.js';
import { SCHEMA } from '../version.js';
import { quoted } from './validate.js';
import { INTERVAL_ROUNDS, MARGIN, verdictOf } from '../stats/sequential.js';

/**
 * Refuses a document whose schema this mmapbench cannot read: not one, or
 * a newer one's.
 * @param {{ schema?: unknown, mmapbench?: unknown }} document
 * @param {string} what
 */
export function checkSchema(document, what) {
  // documents from before the field existed have the first layout
  const schema = /** @type {number} */ (document.schema ?? 1); // checked next
  if (!Number.isInteger(schema) || schema < 1)
    throw usageError(
      `${what} has an invalid "schema" (${quoted(schema)}): mmapbench writes a whole number from 1 to ${SCHEMA}; pass the file as mmapbench saved it`,
    );
  if (schema > SCHEMA)
    throw usageError(
      `${what} is from a newer mmapbench (${document.mmapbench}, results schema ${schema}; this one reads schema ${SCHEMA}); upgrade mmapbench to read it`,
    );
}

/**
 * Schema 1 to 2. Schema 1 is every file from before 2026-11-27, whose layout grew by optional
 * fields: here each gets what its absence meant.
 * @param {any} document  a copy, changed in place
 */
function toSchema2(document) {
  // a sweep (and advise, which is one) from before --cycles was an axis ran each cell once
  if (document.axes && !document.axes.cycles) {
    document.axes.cycles = [1];
    for (const point of document.points ?? []) point.cycles ??= 1;
  }
  // and a kept sweep goes on with the default (JSON keeps "the default" as null)
  if (document.resume?.axes && !document.resume.axes.cycles) document.resume.axes.cycles = [null];
  // sweep's K to run, from before there was one
  for (const group of document.scaling ?? [])
    for (const mode of ['workers', 'procs'])
      if (typeof group[mode] === 'object' && group[mode]) group[mode].recommended ??= null;
  const { advice } = document;
  if (advice) {
    // before advise had a choice it ranked by throughput, every fix in both modes (ranked by the
    // workers'); before fixes for processes alone, none was; before defaults, none was left out
    advice.for ??= 'throughput';
    advice.bestProcs ??= null;
    advice.defaults ??= [];
    for (const row of advice.rows) {
      row.mode ??= 'workers';
      row.score ??= row.gain;
      // no range: a file from before ranks were ranges is shown by its order, as then
      row.rank ??= null;
    }
  }
  if (document.command === 'reproduce') {
    // before --precision a reproduce run stopped at 5%; before protocols its cells were steady;
    // before --node it ran on the CLI's node alone
    document.options.precision ??= 0.05;
    document.options.protocol ??= 'steady';
    document.nodes ??= [];
  }
  document.schema = 2;
}

/**
 * Schema 2 to 3. Before 2026-11-29 a verdict was read from two rounds too, whose interval decides
 * nothing however close they happen to lie; since, fewer than INTERVAL_ROUNDS rounds have no
 * verdict's interval and no half-width (a noise floor): such a point's verdict is read again from
 * its rounds' ratios, by the one rule every verdict is read by, and the next step its file kept
 * in words (built on that verdict) is drawn again from it.
 * @param {any} document  a copy, changed in place
 */
function toSchema3(document) {
  for (const point of document.points ?? [document]) {
    const { ratio, verdict } = point;
    if (!ratio || !Array.isArray(ratio.samples) || ratio.samples.length >= INTERVAL_ROUNDS) continue;
    ratio.halfWidth = null;
    // and what it said to do next was built on that verdict, or on its interval as a noise floor
    delete point.next;
    // a verdict from before outcomes (schema 1's words) is shown as it was saved
    if (verdict?.outcome && verdict.look)
      point.verdict = verdictOf(ratio.samples, { look: verdict.look, margin: verdict.margin ?? MARGIN });
  }
  document.schema = 3;
}

/** What a compare, workers or procs document keeps of its run; the rest is its point's. */
const OF_THE_RUN = [
  'mmapbench',
  'schema',
  'command',
  'status',
  'error',
  'resume',
  'modules',
  'warnings',
  'config',
  'aa',
  'seconds',
  'machine',
  'environment',
  'shortBudget',
  'gate',
  'next',
];

/**
 * Schema 3 to 4. Until later on 2026-11-29 a compare, workers or procs document held its one point's
 * figures and rounds at its top level; since, it is laid out as a sweep's: its run's fields, the
 * rounds' `order`, and `points` holding that one point (`p1`). Nothing is read again.
 * @param {any} document  a copy, changed in place
 */
function toSchema4(document) {
  if (!['compare', 'workers', 'procs'].includes(document.command) || document.points) {
    document.schema = 4;
    return;
  }
  // the run's one point took the run's time, as a sweep's point keeps its own
  /** @type {Record<string, unknown>} */
  const point = { id: 'p1', seconds: document.seconds };
  for (const key of Object.keys(document))
    if (!OF_THE_RUN.includes(key)) {
      point[key] = document[key];
      delete document[key];
    }
  document.order = /** @type {Array<{ index: number }>} */ (point.rounds ?? []).map((round) => ({
    index: round.index,
    points: ['p1'],
  }));
  document.points = [point];
  document.schema = 4;
}

/** Each step, by the schema it upgrades from. */
const STEPS = /** @type {Record<number, (document: any) => void>} */ ({ 1: toSchema2, 2: toSchema3, 3: toSchema4 });

/**
 * The document in this mmapbench's layout: itself when it is in it, else an upgraded copy (the
 * caller's object, an API user's, is never changed). Its schema is checked before (load.js).
 * @template {{ schema?: number }} D
 * @param {D} document
 * @returns {D}
 */
export function upgraded(document) {
  let schema = document.schema ?? 1;
  // a newer one's, or none (checkSchema refuses both)
  if (!Number.isInteger(schema) || schema < 1 || schema >= SCHEMA) return document;
  const copy = structuredClone(document);
  for (; schema < SCHEMA; schema++) STEPS[schema](copy);
  return copy;
}

/**
 * A reproduce run saved as lines (before reproduce saved a results document like every other
 * command): a `run` header, a `cell` or `calibration` record per line, and an `end` per run that
 * got that far (the last counts), as the document reproduce saves now. A line a kill cut off is
 * left out: its cell runs again on --resume. The document is then checked as any other (load.js).
 * @param {string} text
 * @param {(why: string) => Error} notOurs  the error for a file that is not a results file
 */
export function fromReproduceLines(text, notOurs) {
  const [first, ...lines] = text.split('\n');
  let header;
  try {
    header = JSON.parse(first);
  } catch {
    throw notOurs('line 1 is not JSON');
  }
  if (header?.type !== 'run' || typeof header.options !== 'object' || header.options === null)
    throw notOurs('no run header on line 1');
  const records = [];
  let end = null;
  for (const line of lines) {
    let record;
    try {
      record = line && JSON.parse(line);
    } catch {
      continue;
    }
    if (record?.type === 'end') end = record;
    else if (record) records.push(record);
  }
  const { type, ...fields } = header;
  const status = String(end?.status ?? 'incomplete');
  const [kind, message] = status.split(/: (.*)/s);
  return {
    ...fields,
    command: 'reproduce',
    status: kind === 'failed' || kind === 'interrupted' ? kind : status === 'complete' ? status : 'incomplete',
    error: kind === 'failed' ? { kind: 'failed', message, worker: null } : kind === 'interrupted' ? INTERRUPTED : null,
    records,
    skipped: end?.skipped ?? [],
  };
}

const INTERRUPTED = { kind: 'interrupted', message: 'interrupted', worker: null };
