// A reproduce run's first and last sections: the machine and settings it ran with, and every
// claim's verdict in one table.
import { INVESTIGATION } from '../../reference/published.js';
import { plural, percentText } from '../../words/spelling.js';
import { QUICK_EXPERIMENTS } from './bounds.js';
import { PUBLISHED } from './protocols.js';
import { DECIDES, kNote, shown } from './sections.js';
import { machineFacts } from '../../document/machine-facts.js';
import { statusSentence } from '../../document/status-words.js';

/**
 * @typedef {import('./experiments.js').ClaimVerdict} ClaimVerdict
 * @typedef {import('../../words/report-model.js').ReportModel} ReportModel
 */

/**
 * The report's first block: what this run ran on and how.
 * @param {import('./types.js').ReproduceDocument} document
 * @param {{ file: string, bounds: number[] }} run
 * @returns {ReportModel}
 */
export function environmentModel(document, { file, bounds }) {
  const { environment: env, options } = document;
  const rows = [
    ['status', statusSentence(document)],
    ['mmapbench', document.mmapbench],
    ['started', document.started],
    ['node', `${env.node.version} (${env.node.path})`],
    // a name on one line: the fit to the screen wraps the figures, not the names
    ...Object.entries(machineFacts(env)).map(([name, value]) => [name.replaceAll(' ', '\u00a0'), value]),
    ['k', kNote(options.k, env.cpu.logicalCores)],
    [
      'cells',
      options.quick
        ? `--quick: ${QUICK_EXPERIMENTS.iterations} iterations per worker after ${QUICK_EXPERIMENTS.warmup} warmup (a smoke run; its figures decide little)`
        : `~${options.duration} s each, iterations calibrated per setting`,
    ],
    [
      'rounds',
      options.quick
        ? `${QUICK_EXPERIMENTS.rounds} (--quick)`
        : options.rounds
          ? `${options.rounds} (--rounds)`
          : typeof options.precision === 'number'
            ? `${bounds[0]}, then more until every claim's interval is within ±${percentText(options.precision, 2)}, at most ${bounds[1]}`
            : `${bounds[0]}, then more until every claim is decided (its interval, valid at every round, on one side), at most ${bounds[1]}, where a last 95.5% look decides what is left`,
    ],
    [
      'protocol',
      {
        fresh: `fresh: warm cells, iterations calibrated per setting; the investigation's claims decided on each worker's first ${PUBLISHED.iterations.toLocaleString('en-US')} ops, as it timed them, and shown once warm beside`,
        steady: 'steady: warm cells, iterations calibrated per setting',
        published: `published: ${PUBLISHED.iterations.toLocaleString('en-US')} iterations per worker and no warmup, as the investigation ran them`,
        both: 'both: published and steady cells in the same interleaved rounds, a verdict under each; the published one decides',
      }[options.protocol ?? 'steady'],
    ],
    ['jemalloc', document.jemalloc ?? 'not found'],
    ['results file', file],
  ];
  for (const { name, reason } of document.skipped) rows.push([`skipped: ${name}`, reason]);
  return {
    title: "mmapbench reproduce: the investigation's tables re-checked on this machine",
    lines: [
      `Every ops/s and ratio below was measured in this run; published figures are quoted from ${INVESTIGATION} and labelled as such.`,
    ],
    tables: [{ head: ['', 'this run'], rows, align: ['left', 'left'], widths: [16, 100] }],
    notes: [],
  };
}

/**
 * One line per claim, first in the report, so a reader sees every verdict at once: a column per
 * reading any experiment was judged on, the deciding one first; `-` where an experiment has no
 * such reading (a claim on its window's trace, or a related source's own benchmark, read warm).
 * @param {Array<{ name: string, verdicts: ClaimVerdict[], byProtocol?: Record<string, ClaimVerdict[]> }>} sections
 * @param {{ quick?: boolean }} [run]
 * @returns {ReportModel}
 */
export function summaryModel(sections, { quick = false } = {}) {
  // the deciding readings first, whichever experiment came first
  const read = new Set(sections.flatMap((s) => Object.keys(s.byProtocol ?? { steady: true })));
  const protocols = ['fresh', 'published', 'steady'].filter((protocol) => read.has(protocol));
  if (!protocols.length) protocols.push('steady');
  const both = protocols.length > 1;
  const rows = sections.flatMap(({ name, verdicts, byProtocol }) =>
    verdicts.map((v, i) => [
      name,
      v.claim,
      ...protocols.map((protocol) => {
        const under = byProtocol ? byProtocol[protocol] : verdicts;
        return under ? shown(under[i].verdict, quick) : '-';
      }),
    ]),
  );
  const open = sections
    .flatMap((s) => protocols.flatMap((protocol) => (s.byProtocol ? (s.byProtocol[protocol] ?? []) : s.verdicts)))
    .filter((v) => v.verdict === 'inconclusive').length;
  const head = [
    'experiment',
    'claim',
    ...(both ? protocols : [protocols[0] === 'steady' ? 'verdict' : `verdict (${protocols[0]})`]),
  ];
  return {
    title: 'Verdicts',
    lines: [],
    tables: [
      {
        head,
        rows,
        align: head.map(() => 'left'),
        widths: both ? [16, 56, 14, 14] : [16, 70, 15],
      },
    ],
    notes: [
      ...(both ? [`${DECIDES[protocols[0]] ?? ''} (--verbose: each experiment's tables)`] : []),
      ...(rows.some((row) => row.includes('-'))
        ? ["-: a claim read once warm only: on what its windows traced, or a related source's benchmark of its own k"]
        : []),
      ...(quick
        ? [
            `--quick: cells of ${QUICK_EXPERIMENTS.iterations} iterations, mostly process startup, and ${QUICK_EXPERIMENTS.rounds} rounds; ` +
              'these verdicts show the suite runs, they are not findings. Run without --quick to decide the claims.',
          ]
        : []),
      ...(open
        ? [
            `${plural(open, 'verdict')} stayed inconclusive: the interval straddles the threshold (see each section for how many rounds would decide it).`,
          ]
        : []),
    ],
  };
}
