import { INVESTIGATION } from '../reference/published.js';
import { withCI } from '../report/sentences.js';
import { fixed, ops, renderMarkdown, renderTerminal } from '../report/table.js';
import { ExperimentData } from './data.js';
import { modesOf } from './experiments.js';
import { QUICK } from './rounds.js';

const PUBLISHED_SETUP = 'k=8 on an Intel i7-7700 (4C/8T), Linux 6.8, glibc 2.39, Node 27.0.0-pre';
const VERDICT_WIDTHS = [44, 15, 60];

// the column head says "95% CI"
const withCi = (stats) => (stats ? withCI(stats, '', { label: false }) : '-');
const rate = (value) => (value === null || value === undefined ? '-' : ops(value));
const thousands = (value) => (value === null || value === undefined ? '-' : `${Math.round(value / 1000)}k`);

/** `k=2 (published k=8; scaled to the 2 CPUs here)` */
export function kNote(k, cores) {
  // more workers than CPUs measures CPU sharing as well as the lock: the report says so itself
  const over = k > cores ? `; more than the ${cores} CPUs here, so they also share CPU time` : '';
  if (k === 8) return `k=8 as published${over}`;
  return cores < 8 && k === cores
    ? `k=${k} (published k=8; scaled to the ${cores} CPUs here)`
    : `k=${k} (published k=8; set by -k${over})`;
}

/** A verdict as printed: a --quick run's are labelled smoke in every row, never read as findings. */
const shown = (verdict, quick) => (quick ? `${verdict} (smoke)` : verdict);

function rowsTable(variants, data) {
  const rows = variants.map((variant) => {
    const p = variant.published ?? {};
    const measured = modesOf(variant);
    return [
      variant.label,
      measured.includes('workers') ? rate(data.median(variant.id, 'workers')) : '-',
      measured.includes('procs') ? rate(data.median(variant.id, 'procs')) : '-',
      withCi(data.ratio(variant.id)),
      rate(p.workers),
      rate(p.procs),
      p.ratio === undefined ? '-' : fixed(p.ratio),
    ];
  });
  const head = [
    'setting',
    'workers ops/s',
    'procs ops/s',
    'workers/procs (95% CI)',
    'published workers',
    'published procs',
    'published ratio',
  ];
  return {
    head,
    rows,
    align: ['left', 'right', 'right', 'right', 'right', 'right', 'right'],
    widths: [24, 11, 11, 18, 11, 11, 11],
  };
}

function gridTable(variants, data) {
  const columns = [...new Set(variants.map((v) => v.grid.column))];
  const sizes = [...new Set(variants.map((v) => v.grid.row))];
  const rows = sizes.map((size) => {
    const cells = columns.map((column) => {
      const variant = variants.find((v) => v.grid.row === size && v.grid.column === column);
      return `${thousands(data.median(variant.id, modesOf(variant)[0]))} / ${thousands(variant.published?.value)}`;
    });
    return [size, ...cells, withCi(data.relative(`${size}@256k`, `${size}@8k`, 'workers'))];
  });
  const head = [
    'file',
    ...columns.map((c) => (c === 'procs' ? 'procs (pool 8k)' : `pool ${c}`)),
    'workers 256k / 8k (95% CI)',
  ];
  return {
    head,
    rows,
    align: ['left', ...head.slice(1).map(() => 'right')],
    widths: [8, ...head.slice(1).map(() => 13)],
  };
}

const verdictTable = (verdicts, quick) => ({
  head: ['claim', 'verdict', 'evidence (per-round ratio, 95% CI)'],
  rows: verdicts.map((v) => [v.claim, shown(v.verdict, quick), v.text]),
  align: ['left', 'left', 'left'],
  widths: VERDICT_WIDTHS,
});

/**
 * One experiment's section: its table shaped like the published one, measured medians beside
 * the published figures, then a verdict per claim.
 * @returns {{ model: import('../report/table.js').ReportModel, verdicts: object[] }}
 */
export function experimentSection(experiment, variants, cells, { k, cores, quick = false }) {
  const data = new ExperimentData(cells);
  const verdicts = experiment.verdicts(data);
  const table = experiment.table
    ? experiment.table(variants, data)
    : experiment.shape === 'grid'
      ? gridTable(variants, data)
      : rowsTable(variants, data);
  const measuredRounds = data.rounds.length;
  return {
    verdicts,
    model: {
      title: `${experiment.name} — ${experiment.hypothesis} · ${experiment.k ? `k=${experiment.k}, one process, as published` : kNote(k, cores)} · ${measuredRounds} round${measuredRounds === 1 ? '' : 's'} measured`,
      lines: [
        `claim: ${experiment.claim}`,
        `published figures (quoted, not measured here): ${experiment.source}; ${experiment.setup ?? PUBLISHED_SETUP}`,
        ...(experiment.table
          ? ['figures are medians over rounds; a ratio is the median of per-round ratios']
          : experiment.shape === 'grid'
            ? ['cells: workers ops/s measured / published; the procs column is procs ops/s']
            : ['ops/s are medians over rounds; workers/procs is the median of per-round ratios']),
      ],
      tables: [table, verdictTable(verdicts, quick)],
      notes: [],
    },
  };
}

/** The report's first block: what this run ran on and how. */
export function environmentModel({ header, status, file, skipped, bounds }) {
  const { environment: env, options } = header;
  const rows = [
    ['status', status],
    ['mmapbench', header.mmapbench],
    ['started', header.started],
    ['node', `${env.node.version} (${env.node.path})`],
    ['kernel', `${env.kernel} (${env.platform})`],
    ['glibc', env.glibc ?? 'n/a'],
    ['CPU', `${env.cpu.model ?? 'unknown'}: ${env.cpu.logicalCores} logical, ${env.cpu.physicalCores} physical cores`],
    ['THP', env.thp ?? 'n/a'],
    ['k', kNote(options.k, env.cpu.logicalCores)],
    [
      'cells',
      options.quick
        ? `--quick: ${QUICK.iterations} iterations per worker after ${QUICK.warmup} warmup (a smoke run; its figures decide little)`
        : `~${options.duration} s each, iterations calibrated per setting`,
    ],
    [
      'rounds',
      options.quick
        ? `${QUICK.rounds} (--quick)`
        : options.rounds
          ? `${options.rounds} (--rounds)`
          : `${bounds[0]}, then more until every claim's interval is within ±${(options.precision ?? 0.05) * 100}%, at most ${bounds[1]}`,
    ],
    ['jemalloc', header.jemalloc ?? 'not found'],
    ['results file', file],
  ];
  for (const { name, reason } of skipped) rows.push([`skipped: ${name}`, reason]);
  return {
    title: "mmapbench reproduce: the investigation's tables re-checked on this machine",
    lines: [
      `Every ops/s and ratio below was measured in this run; published figures are quoted from ${INVESTIGATION} and labelled as such.`,
    ],
    tables: [{ head: ['', 'this run'], rows, align: ['left', 'left'], widths: [16, 100] }],
    notes: [],
  };
}

/** One line per claim, first in the report, so a reader sees every verdict at once. */
export function summaryModel(sections, { quick = false } = {}) {
  const rows = sections.flatMap(({ name, verdicts }) => verdicts.map((v) => [name, v.claim, shown(v.verdict, quick)]));
  const open = sections.flatMap((s) => s.verdicts).filter((v) => v.verdict === 'inconclusive').length;
  return {
    title: 'Verdicts',
    lines: [],
    tables: [{ head: ['experiment', 'claim', 'verdict'], rows, align: ['left', 'left', 'left'], widths: [16, 70, 15] }],
    notes: [
      ...(quick
        ? [
            `--quick: cells of ${QUICK.iterations} iterations, mostly process startup, and ${QUICK.rounds} rounds; ` +
              'these verdicts show the suite runs, they are not findings. Run without --quick to decide the claims.',
          ]
        : []),
      ...(open
        ? [
            `${open} claim${open === 1 ? '' : 's'} stayed inconclusive: the interval straddles the threshold (see each section for how many rounds would decide it).`,
          ]
        : []),
    ],
  };
}

export function renderReport(models, { markdown, color = false, width = 80 }) {
  if (markdown) return models.map((model, i) => renderMarkdown(model, { level: i === 0 ? 1 : 2 })).join('\n');
  return models.map((model) => renderTerminal(model, { color, width })).join('\n');
}
