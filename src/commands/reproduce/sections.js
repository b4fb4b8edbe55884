import { fixed, percentText, plural, rate, MODES } from '../../words/spelling.js';
import { confidenceOf } from '../../stats/sequential.js';
import { ExperimentData } from './data.js';
import { variantModes } from './experiments.js';
import { num, withCi } from './tables.js';
import { cellsUnder, PUBLISHED, variantsUnder } from './protocols.js';
import { accountResults } from '../../stats/account.js';
import { accountWords } from '../../document/account-text.js';
import { lookClause } from '../../document/sentences.js';

const PUBLISHED_SETUP = 'k=8 on an Intel i7-7700 (4C/8T), Linux 6.8, glibc 2.39, Node 27.0.0-pre';
const VERDICT_WIDTHS = [44, 15, 60];

/**
 * @typedef {import('./experiments.js').Variant} Variant
 * @typedef {import('./experiments.js').ExperimentTable} ExperimentTable
 * @typedef {import('./experiments.js').ClaimVerdict} ClaimVerdict
 * @typedef {import('../../words/report-model.js').ReportModel} ReportModel
 */

const thousands = (/** @type {number | null | undefined} */ value) =>
  value === null || value === undefined ? '-' : `${Math.round(value / 1000)}k`;

/**
 * `k=2 (published k=8; scaled to the 2 CPUs here)`
 * @param {number} k
 * @param {number} cores
 */
export function kNote(k, cores) {
  // more workers than CPUs measures CPU sharing as well as the lock: the report says so itself
  const over = k > cores ? `; more than the ${cores} CPUs here, so they also share CPU time` : '';
  if (k === 8) return `k=8 as published${over}`;
  return cores < 8 && k === cores
    ? `k=${k} (published k=8; scaled to the ${cores} CPUs here)`
    : `k=${k} (published k=8; set by -k${over})`;
}

/** A verdict as printed: a --quick run's are labelled smoke in every row, never read as findings. */
export const shown = (/** @type {string} */ verdict, /** @type {boolean} */ quick) =>
  quick ? `${verdict} (smoke)` : verdict;

/**
 * @param {Variant[]} variants
 * @param {ExperimentData} data
 * @returns {ExperimentTable}
 */
function rowsTable(variants, data) {
  const rows = variants.map((variant) => {
    const p = variant.published ?? {};
    const measured = variantModes(variant);
    return [
      variant.label,
      measured.includes('workers') ? rate(data.median(variant.id, 'workers')) : '-',
      measured.includes('procs') ? rate(data.median(variant.id, 'procs')) : '-',
      withCi(data.ratio(variant.id)),
      rate(num(p.workers)),
      rate(num(p.procs)),
      typeof p.ratio === 'number' ? fixed(p.ratio) : '-',
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

/**
 * @param {Variant[]} variants  each with its place in the grid
 * @param {ExperimentData} data
 * @returns {ExperimentTable}
 */
function gridTable(variants, data) {
  const placed = variants.flatMap((variant) => (variant.grid ? [{ variant, grid: variant.grid }] : []));
  const columns = [...new Set(placed.map(({ grid }) => grid.column))];
  const sizes = [...new Set(placed.map(({ grid }) => grid.row))];
  const rows = sizes.map((size) => {
    const cells = columns.map((column) => {
      const found = placed.find(({ grid }) => grid.row === size && grid.column === column);
      if (!found) return '-';
      const { variant } = found;
      return `${thousands(data.median(variant.id, variantModes(variant)[0]))} / ${thousands(num(variant.published?.value))}`;
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

const verdictTable = (/** @type {ClaimVerdict[]} */ verdicts, /** @type {boolean} */ quick) => ({
  head: ['claim', 'verdict', 'evidence (per-round ratio, 95% CI)'],
  rows: verdicts.map((v) => [v.claim, shown(v.verdict, quick), v.text]),
  align: ['left', 'left', 'left'],
  widths: VERDICT_WIDTHS,
});

/**
 * One experiment's section: its table shaped like the published one, measured medians beside
 * the published figures, then a verdict per claim. With two readings (fresh and steady, or
 * published and steady), a table for each and both verdicts side by side, the deciding one
 * first, with a line saying whether they differ.
 * @param {import('./experiments.js').Experiment} experiment
 * @param {Variant[]} variants
 * @param {import('./types.js').CellRecord[]} cells
 * @param {{ k: number, cores: number, quick?: boolean, protocols?: import('./protocols.js').Reading[],
 *   premise?: string | null, look?: import('../../stats/sequential.js').Look }} run  premise: what
 *   upstream changed under its claim, said beside it; look: what the claims' intervals are
 *   (runner.js: lookOfRun)
 * @returns {{ model: ReportModel, verdicts: ClaimVerdict[], byProtocol: Record<string, ClaimVerdict[]> }}
 */
export function experimentSection(
  experiment,
  variants,
  cells,
  {
    k,
    cores,
    quick = false,
    protocols = /** @type {import('./protocols.js').Reading[]} */ (['steady']),
    premise = null,
    look = /** @type {import('../../stats/sequential.js').Look} */ ('fixed'),
  },
) {
  const { byProtocol, tables, measuredRounds } = readings(experiment, variants, cells, protocols, look);
  const verdicts = byProtocol[protocols[0]];
  /** @type {string[]} */
  const notes = [];
  // the account is of the timed windows: a steady or published reading's
  for (const protocol of protocols.filter((p) => p !== 'fresh'))
    notes.push(
      ...accountNotes(variantsUnder(variants, protocol), cellsUnder(cells, protocol), {
        k,
        protocol,
        protocols,
        quick,
      }),
    );
  if (protocols.length > 1) {
    tables.push(bothVerdictsTable(protocols, byProtocol, quick));
    const other = byProtocol[protocols[1]];
    const changed = verdicts.filter((v, i) => v.verdict !== other[i].verdict);
    const [first, then] = protocols.map((p) => READING_NAMES[p]);
    notes.push(
      changed.length
        ? `${first} and ${then} get different verdicts on ${changed.length} of ${plural(verdicts.length, 'claim')} (${protocols[0]} decides): ${changed.map((v) => v.claim).join('; ')}`
        : `${first} and ${then} agree: every claim gets the same verdict both ways`,
    );
  } else tables.push(verdictTable(verdicts, quick));
  // the intervals are the look's (runner.js): every head and line that names one names it so
  const named = (/** @type {string} */ text) =>
    look === 'fixed' ? text : text.replaceAll('95% CI', `${percentText(confidenceOf(look), 2)} CI${lookClause(look)}`);
  return {
    verdicts,
    byProtocol,
    model: {
      title: `${experiment.name} — ${experiment.hypothesis} · ${experiment.k ? `k=${experiment.k}, one process, as published` : kNote(k, cores)} · ${plural(measuredRounds, 'round')} measured`,
      lines: headLines(experiment, protocols, premise).map(named),
      tables: tables.map((table) => ({ ...table, head: table.head.map(named) })),
      notes,
    },
  };
}

/**
 * Each reading's verdicts and table, and the most rounds any measured.
 * @param {import('./experiments.js').Experiment} experiment
 * @param {Variant[]} variants
 * @param {import('./types.js').CellRecord[]} cells
 * @param {import('./protocols.js').Reading[]} protocols
 * @param {import('../../stats/sequential.js').Look} look
 */
function readings(experiment, variants, cells, protocols, look) {
  /** @type {Record<string, ClaimVerdict[]>} */
  const byProtocol = {};
  /** @type {ReportModel['tables']} */
  const tables = [];
  let measuredRounds = 0;
  for (const protocol of protocols) {
    const data = new ExperimentData(cellsUnder(cells, protocol), { look });
    measuredRounds = Math.max(measuredRounds, data.rounds.length);
    byProtocol[protocol] = experiment.verdicts(data);
    const settings = variantsUnder(variants, protocol);
    const table = experiment.table
      ? experiment.table(settings, data)
      : experiment.shape === 'grid'
        ? gridTable(settings, data)
        : rowsTable(settings, data);
    if (protocols.length > 1 || protocol !== 'steady')
      table.head = [`${table.head[0]} (${protocol})`, ...table.head.slice(1)];
    tables.push(table);
  }
  return { byProtocol, tables, measuredRounds };
}

/**
 * The lines under an experiment's title: its claim, what changed upstream, where the published
 * figures come from, how its table reads, and what each reading is.
 * @param {import('./experiments.js').Experiment} experiment
 * @param {import('./protocols.js').Reading[]} protocols
 * @param {string | null} premise
 */
function headLines(experiment, protocols, premise) {
  return [
    `claim: ${experiment.claim}`,
    ...(premise ? [`upstream since: ${premise}`] : []),
    `published figures (quoted, not measured here): ${experiment.source}; ${experiment.setup ?? PUBLISHED_SETUP}`,
    ...(experiment.table
      ? [
          "figures are medians over rounds; a ratio with its 95% CI is the geometric mean of the per-round ratios, the interval's centre (the median with fewer than 3 rounds)",
        ]
      : experiment.shape === 'grid'
        ? ['cells: workers ops/s measured / published; the procs column is procs ops/s']
        : [
            "ops/s are medians over rounds; workers/procs with its 95% CI is the geometric mean of the per-round ratios, the interval's centre (the median with fewer than 3 rounds)",
          ]),
    ...protocols.map((protocol) => `${protocol}: ${PROTOCOL_TEXT[protocol](experiment)}`),
  ];
}

/**
 * Where each two-mode setting's time per op went, in the account's words: a line per setting.
 * @param {Variant[]} variants  under one protocol
 * @param {import('./types.js').CellRecord[]} cells  the same protocol's
 * @param {{ k: number, protocol: 'steady'|'published', protocols: string[], quick: boolean }} run
 */
function accountNotes(variants, cells, { k, protocol, protocols, quick }) {
  const modes = MODES;
  return variants.flatMap((variant) => {
    if (variantModes(variant).length !== 2) return [];
    /** @type {Map<number, { cells: Partial<Record<'workers'|'procs', import('../../stats/cell-summary.js').CellResult>> }>} */
    const rounds = new Map();
    for (const record of cells) {
      if (record.variant !== variant.id) continue;
      const round = rounds.get(record.round) ?? { cells: {} };
      round.cells[record.mode] = record.cell;
      rounds.set(record.round, round);
    }
    const complete = [...rounds.values()].filter((round) => modes.every((mode) => round.cells[mode]?.account));
    if (!complete.length) return [];
    const account = accountResults(complete, modes, variant.k ?? k);
    const { reading } = accountWords(account, {
      names: ['workers', 'procs'],
      traced: Boolean(variant.trace),
      protocol,
      quick,
    });
    return reading ? [`account, ${variant.label}${protocols.length > 1 ? ` (${protocol})` : ''}: ${reading}`] : [];
  });
}

/** What the summary's first column means, where a second is beside it. @type {Record<string, string>} */
export const DECIDES = {
  fresh: `fresh decides: each worker's first ${PUBLISHED.iterations.toLocaleString('en-US')} ops, as the investigation timed them; steady: the same cells once warm`,
  published: `published decides: cells of ${PUBLISHED.iterations.toLocaleString('en-US')} iterations and no warmup, as the investigation ran them; steady: warm cells`,
};

/** How each reading is said where two are compared. */
const READING_NAMES = { fresh: 'fresh workers', steady: 'warm workers', published: 'the published protocol' };

/** @type {Record<import('./protocols.js').Reading, (experiment: import('./experiments.js').Experiment) => string>} */
const PROTOCOL_TEXT = {
  fresh: () =>
    `each worker's first ${PUBLISHED.iterations.toLocaleString('en-US')} ops, read from its cell's warm-up (the K start together), as the investigation timed fresh workers`,
  steady: () => 'warm cells of about --duration seconds, iterations calibrated per setting',
  published: (experiment) =>
    experiment.k
      ? 'the same work with no warmup, cold, as the source ran its benchmark'
      : `${PUBLISHED.iterations.toLocaleString('en-US')} iterations per worker, no warmup, as the investigation ran them`,
};

/**
 * Both readings' verdicts side by side, the deciding one first.
 * @param {string[]} protocols
 * @param {Record<string, ClaimVerdict[]>} byProtocol
 * @param {boolean} quick
 */
const bothVerdictsTable = ([first, then], byProtocol, quick) => ({
  head: ['claim', first, then, `evidence: ${first}; ${then}`],
  rows: byProtocol[first].map((v, i) => {
    const other = byProtocol[then][i];
    return [v.claim, shown(v.verdict, quick), shown(other.verdict, quick), `${v.text}; ${then}: ${other.text}`];
  }),
  align: ['left', 'left', 'left', 'left'],
  widths: [34, 15, 15, 46],
});
