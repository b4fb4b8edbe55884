import { withCI } from '../../document/sentences.js';
import { FURTHER_MEASURES } from '../../points/measures.js';
import { fixed, plural } from '../../words/spelling.js';
import { FAULT_NAMES } from '../../document/fault-words.js';

/**
 * @param {{ base: number, new: number }} rounds
 * @returns {(stats: { change: number, ci95: [number, number] | null } | null) => string}
 */
const change = (rounds) => (stats) =>
  stats
    ? withCI({ median: stats.change, ci95: stats.ci95, n: Math.min(rounds.base, rounds.new) }, '', { label: false })
    : '-';
/** `compare, 2026-11-22 08:51 UTC` */
const run = (/** @type {{ command: string, date?: string | null, status?: string }} */ { command, date, status }) =>
  `${command}, ${date ? `${date.slice(0, 16).replace('T', ' ')} UTC` : 'date unknown'}${status ? `, ${status.toUpperCase()}` : ''}`;
const ratio = (/** @type {number | null} */ value) => (value === null ? '-' : fixed(value));

/**
 * The notes under a diff: how a change reads, the drift between runs, the further measures,
 * where each change came from, and the points in one run only.
 * @param {import('./document.js').DiffDocument} diff
 */
function diffNotes(diff) {
  const notes = [
    "Each change is new / base (1.00: no change) with its 95% CI, a Welch t interval on the per-round logs of both runs: of the workers/procs ratio, and of each mode's ops/s. The gap is how far the ratio lies from 1.",
  ];
  // a machine drifts between runs by more than either run's interval (docs/how-it-measures.md, "Figures behind the defaults");
  // rounds interleaved in one run cancel that drift
  notes.push(
    'The two runs were measured at different times, so drift of the machine between them counts as change here; to compare two Nodes or settings on one machine, `mmapbench sweep` interleaves them in the same rounds (--node A --node B, --variant).',
  );
  const further = FURTHER_MEASURES.filter((measure) => diff.points.some((point) => point.measures?.[measure.key]));
  if (further.length)
    notes.push(
      `Under a point, each mode's change of ${further.map((measure) => measure.name).join(', ')}: new / base, as above.`,
    );
  // where the change came from, for points whose runs both kept the account
  for (const point of diff.points) if (point.account?.reading) notes.push(`${point.label}: ${point.account.reading}`);
  if (diff.fault) notes.push(faultNote(diff.fault));
  if (diff.onlyIn.base.length) notes.push(`only in the base run: ${diff.onlyIn.base.join('; ')}`);
  if (diff.onlyIn.new.length) notes.push(`only in the new run: ${diff.onlyIn.new.join('; ')}`);
  return notes;
}

/**
 * The diff as a report: the facts that differ, then a row per shared point.
 * @param {import('./document.js').DiffDocument} diff
 * @returns {import('../../words/report-model.js').ReportModel}
 */
export function diffModel(diff) {
  const rows = diff.points.flatMap((point) => {
    const of = change(point.rounds);
    return [
      [
        `${point.label}\nratio ${ratio(point.ratio.base)} → ${ratio(point.ratio.new)}, rounds ${point.rounds.base} / ${point.rounds.new}`,
        of(point.ratioChange),
        of(point.throughputChange.workers),
        of(point.throughputChange.procs),
        point.verdict ?? '-',
      ],
      // each measure beyond throughput both runs had, under its point
      ...FURTHER_MEASURES.flatMap((measure) => {
        const changes = point.measures?.[measure.key];
        return changes ? [[`  ${measure.name}`, '', of(changes.workers), of(changes.procs), '']] : [];
      }),
    ];
  });
  const notes = diffNotes(diff);
  return {
    title: `mmapbench diff: ${plural(diff.points.length, 'point')} in common`,
    lines: [
      `base (${run(diff.base)}): ${diff.base.path}`,
      `new (${run(diff.new)}): ${diff.new.path}`,
      diff.differences.length
        ? `what differs between the runs (${diff.differences.map(({ fact }) => fact).join(', ')}): see the first table`
        : 'the runs share Node, kernel, glibc, CPU, cores, THP, libuv pool size, allocator environment and protocol',
    ],
    tables: [
      ...(diff.differences.length
        ? [
            {
              head: ['differs', 'base', 'new'],
              rows: diff.differences.map(({ fact, base, new: next }) => [fact, base, next]),
              align: ['left', 'left', 'left'],
              widths: [16, 40, 40],
            },
          ]
        : []),
      {
        head: ['point', 'ratio change', 'workers change', 'procs change', 'verdict'],
        rows,
        align: ['left', 'right', 'right', 'right', 'left'],
        widths: [30, 19, 19, 19, 14],
      },
      ...(diff.fault ? [faultTable(diff.fault)] : []),
    ],
    notes,
  };
}

/**
 * What one crash took down in each run (--fault), a row per mode: one reading each, no interval.
 * @param {NonNullable<import('./document.js').DiffDocument['fault']>} fault
 */
function faultTable({ modes }) {
  return {
    head: ['took down', 'base', 'new', 'changed'],
    rows: modes.map((row) => [`with ${row.mode}`, row.base ?? '-', row.new ?? '-', row.changed ? 'yes' : 'no']),
    align: /** @type {Array<'left'|'right'>} */ (['left', 'left', 'left', 'left']),
    widths: [12, 28, 28, 10],
  };
}

/**
 * Under the tables, what the fault table compares: each run's kind, and what `changed` means.
 * @param {NonNullable<import('./document.js').DiffDocument['fault']>} fault
 */
function faultNote({ kind }) {
  const name = (/** @type {string | null} */ one) =>
    one ? `one ${FAULT_NAMES[/** @type {keyof typeof FAULT_NAMES} */ (one)]}` : 'no --fault';
  return `What one crash took down (--fault): base ${name(kind.base)}, new ${name(kind.new)}; each run's is one fault round, a single reading whose times carry no interval; changed: the kind, whether the app lived, or how many workers it lost differ.`;
}
