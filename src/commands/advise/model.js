// `advise`'s ranking as a table and its verdict in a sentence: the best fix with its gain and
// its cost, and the exact line that applies it; the published ranking beside it where it covers
// the task, labelled with its source.
import { titleState } from '../../document/status-words.js';
import { poolText } from '../../document/pool-words.js';
import { MITIGATION_RANKING } from '../../reference/published.js';
import { differenceText, formatCI } from '../../document/sentences.js';
import { fixed, MODES, percentText } from '../../words/spelling.js';
import { scoreIn } from './advice.js';
import { recommendedText } from '../sweep/scaling-text.js';
import { MORE } from '../../view/table.js';
import { slowAgainst } from '../../stats/trees.js';

/**
 * @typedef {import('./advice.js').Advice} Advice
 * @typedef {import('./advice.js').AdviceRow} AdviceRow
 * @typedef {import('./advice.js').Change} Change
 */

/** `3.20× (2.90-3.52)`, or the estimate alone without an interval. */
const times = (/** @type {Change | null} */ change) =>
  change ? `${fixed(change.change)}×${change.ci95 ? ` (${formatCI(change.ci95, { label: false })})` : ''}` : '-';

/** Three significant figures up to 100: 0.91, 8.06, 13.1. */
const short = (/** @type {number} */ value) => (value >= 10 ? value.toFixed(1) : fixed(value));

/** The same in a table's narrow cell: the interval under the estimate, without brackets. */
const timesCell = (/** @type {Change | null} */ change) =>
  change ? `${short(change.change)}×${change.ci95 ? ` ${change.ci95.map(short).join('-')}` : ''}` : '-';

/** `+8% (95% CI +2% to +14%)`: a change in memory as a cost. */
const percentCI = (/** @type {Change} */ change) =>
  `${percent(change)}${change.ci95 ? ` (95% CI ${change.ci95.map((end) => percent({ ...change, change: end })).join(' to ')})` : ''}`;

/** `+8%`, `−12%`: a change as a reader weighs a cost. */
const percent = (/** @type {Change | null} */ change) => {
  if (!change) return '-';
  const value = Math.round((change.change - 1) * 100);
  return `${value > 0 ? '+' : value < 0 ? '−' : '±'}${Math.abs(value)}%`;
};

const READING = /** @type {const} */ ({ better: 'faster', worse: 'hurts', unclear: 'unclear' });
// ranked by a cost, where less is better
const LESS = /** @type {const} */ ({ better: 'less', worse: 'more', unclear: 'unclear' });

/**
 * What each objective is called: in the title, the verdict, and its table's column.
 * @type {Record<import('./advice.js').Objective, { ranked: string, head: string | null, less: string, legend: string }>}
 */
const OBJECTIVE_WORDS = {
  throughput: { ranked: "the workers' throughput", head: null, less: '', legend: '' },
  memory: {
    ranked: 'memory per added worker',
    head: 'memory',
    less: 'memory per added worker',
    legend: 'memory per added worker with the candidate, against the baseline’s, with its 95% CI',
  },
  'kept-memory': {
    ranked: 'memory the app keeps after its workers end',
    head: 'kept',
    less: 'memory the app keeps per ended worker',
    legend:
      'what the app keeps per ended worker with the candidate − the baseline’s, in MiB, with the half-width of its 95% CI',
  },
  'main-latency': {
    ranked: "the app's request p99 while its workers run",
    head: 'app p99',
    less: "the app's request p99",
    legend:
      'the app’s request p99 beside the candidate’s workers against the baseline’s: every round’s requests pooled, with a 95% bootstrap CI, or under 5 rounds the rounds’ own p99s, with a Welch CI',
  },
};

// what the app keeps, as a difference: MiB to a tenth
const KEPT = { unit: 'MiB', digits: 1 };

/** A score as its column shows it: a difference in MiB, or a change in percent with its interval. */
const scoreCell = (/** @type {Change | null} */ change) =>
  !change
    ? '-'
    : change.difference
      ? differenceText(change.change, change.ci95, KEPT)
      : `${percent(change)}${change.ci95 ? ` ${change.ci95.map((end) => percent({ ...change, change: end })).join('/')}` : ''}`;
// a row without figures, in words that wrap in a narrow column; its note says why
const STATUS = /** @type {const} */ ({
  unavailable: 'cannot run',
  failed: 'failed',
  'too few rounds': 'too few rounds',
});

/**
 * @param {AdviceRow} row
 * @param {number | string} rank  its place by order, for a row without a range (no interval, or a
 *   file from before ranks were ranges)
 */
function readingOf(row, rank, objective = 'throughput') {
  if (row.kind === 'baseline') return 'baseline';
  if (row.status !== 'measured') return STATUS[row.status];
  // a range where its interval overlaps others': the order between them is not known
  if (row.rank) rank = row.rank[0] === row.rank[1] ? row.rank[0] : `${row.rank[0]}-${row.rank[1]}`;
  // a fix for processes alone is ranked among those, by the procs' gain
  const dropped = row.dropped ? `, out r${row.dropped.round}` : '';
  const words = objective === 'throughput' ? READING : LESS;
  return `${rank}. ${row.verdict ? words[row.verdict] : 'no interval'}${row.mode === 'procs' ? ' (procs)' : ''}${dropped}`;
}

/**
 * @param {import('../sweep/document.js').SweepDocument & { advice: Advice }} document
 * @returns {import('../../words/report-model.js').ReportModel}
 */
export function adviceModel(document) {
  const { advice } = document;
  const objective = advice.for;
  const words = OBJECTIVE_WORDS[objective];
  const ranks = { workers: 0, procs: 0 };
  const rows = advice.rows.map((row) => {
    if (row.kind !== 'baseline' && row.status === 'measured') ranks[row.mode]++;
    const reading = readingOf(row, ranks[row.mode], objective);
    const spread = row.spread === null ? '-' : fixed(row.spread);
    if (objective === 'throughput')
      return [
        row.name,
        reading,
        timesCell(row.gain.workers),
        timesCell(row.gain.procs),
        row.ratio ? fixed(row.ratio.geomean ?? row.ratio.median) : '-',
        percent(row.memory),
        spread,
      ];
    // ranked by a cost: it first, throughput beside it as what the fix costs or gains there
    return [
      row.name,
      reading,
      row.kind === 'baseline' ? 'baseline' : scoreCell(scoreIn(row)),
      timesCell(row.gain.workers),
      timesCell(row.gain.procs),
      ...(objective === 'memory' ? [] : [percent(row.memory)]),
      spread,
    ];
  });
  const head =
    objective === 'throughput'
      ? ['candidate', 'reading', 'workers ×', 'procs ×', 'w/p', 'memory', 'spread']
      : [
          'candidate',
          'reading',
          /** @type {string} */ (words.head),
          'workers ×',
          'procs ×',
          ...(objective === 'memory' ? [] : ['memory']),
          'spread',
        ];
  const task = document.axes.task[0];
  const notes = adviceNotes(document);
  return {
    title: `mmapbench advise: ${task}, ${advice.rows.length - 1} candidates against the baseline${objective === 'throughput' ? '' : `, ranked by ${words.ranked}`}${titleState(document.status)}`,
    tables: [{ head, rows }],
    notes,
  };
}

/**
 * Where the baseline's fresh trees fell in two states, in a mode: how many of each candidate's
 * trees fell as slow (stats/trees.js: slowAgainst), so the fixes that empty the slow share are
 * named.
 * @param {import('../sweep/document.js').SweepDocument & { advice: Advice }} document
 * @returns {string[]}
 */
function treesNotes(document) {
  const [base] = document.points;
  return MODES.flatMap((mode) => {
    const trees = base?.[mode]?.trees;
    if (trees?.states.length !== 2) return [];
    const counted = document.advice.rows.flatMap((row) => {
      const point = document.points.find((one) => one.id === row.id);
      const rates = point?.[mode]?.trees?.rates;
      return row.kind !== 'baseline' && row.kind !== 'procs' && row.status === 'measured' && rates?.length
        ? [{ name: row.name, ...slowAgainst(rates, trees.states) }]
        : [];
    });
    if (!counted.length) return [];
    const own = slowAgainst(trees.rates, trees.states);
    const emptied = counted.filter((one) => one.slow === 0).map((one) => one.name);
    const kept = counted.filter((one) => one.slow > 0).map((one) => `${one.name} ${one.slow} of ${one.trees}`);
    return [
      `fresh trees (${mode}): the baseline's fell in a slow state (${percentText(trees.states[1].rate / trees.states[0].rate)} of the fast one's speed) in ${own.slow} of ${own.trees}; as slow against their own speed: ${[
        emptied.length ? `none with ${emptied.join(', ')}` : null,
        kept.length ? `some with ${kept.join(', ')}` : null,
      ]
        .filter(Boolean)
        .join('; ')}`,
    ];
  });
}

/**
 * The notes under the ranking: the verdict, how to apply the best, the K to run (--k-auto), what
 * was not tried and why, what raced out, how to read the columns, and the published ranking.
 * @param {import('../sweep/document.js').SweepDocument & { advice: Advice }} document
 */
function adviceNotes(document) {
  const { advice } = document;
  const objective = advice.for;
  const words = OBJECTIVE_WORDS[objective];
  const task = document.axes.task[0];
  const notes = [adviceVerdictText(advice)];
  const bests = [advice.best, advice.bestProcs].flatMap((name) => advice.rows.filter((row) => row.name === name));
  for (const best of bests) notes.push(`apply ${bests.length > 1 ? best.name : 'it'}: ${best.apply}`);
  // --k-auto: the baseline at every k, and the K to run
  for (const group of document.scaling ?? []) {
    const run = recommendedText(group, document);
    if (run)
      notes.push(
        `the baseline at k=${group.workers.steps.map((step) => step.k).join(', ')}: ${run.replace(/^- /, '')}`,
      );
  }
  if (advice.missing.length)
    notes.push(
      `not on this machine, so not tried (never installed by mmapbench): ${advice.missing
        .map((one) => `${one.name} (${one.install})`)
        .join('; ')}`,
    );
  for (const row of advice.rows) if (row.why) notes.push(`${row.name}: ${row.status}: ${row.why}`);
  const dropped = advice.rows.filter((row) => row.dropped);
  // raced by a cost, a worse interval is a higher one
  const below = objective === 'throughput' ? 'below' : 'worse than';
  if (dropped.length)
    notes.push(
      `raced out (out rN: no more rounds after round N, its gain's confidence sequence, valid at every round's look, wholly ${below} the leader's): ${dropped
        .map((row) => `${row.name} ${below} ${row.dropped?.leader}`)
        .join('; ')}`,
    );
  notes.push(...treesNotes(document));
  for (const one of advice.skipped) notes.push(`${one.name} could not start, so it was skipped: ${one.reason}`);
  for (const one of advice.defaults) notes.push(`${one.name} is no fix here, so it was not measured: ${one.why}`);
  const compared = advice.rows.filter((row) => row.kind !== 'baseline' && row.status === 'measured').length;
  const scored = objective === 'throughput' ? '' : `${words.head}: ${words.legend}; `;
  notes.push(
    `${scored}workers ×, procs ×: each mode’s throughput over the baseline’s, with its 95% CI over rounds; ${objective === 'throughput' ? 'w/p: the candidate’s workers/procs; ' : ''}${objective === 'memory' ? '' : 'memory: its workers’ memory per worker against the baseline’s; '}spread: how much its workers’ cells disagree (the standard deviation of their log ops/s); ${objective === 'throughput' ? 'faster or hurts' : 'less or more'}: ${
      advice.rows.some((row) => row.rank)
        ? `the workers’ ${objective === 'throughput' ? 'gain' : words.head} is known to lie ${objective === 'kept-memory' ? 'below 0 or above it' : 'above 1 or below it'}, Holm-corrected over the ${compared} comparisons (each interval shown is 95% alone); 2-4: its interval overlaps others’, so its place lies somewhere there`
        : `the workers’ interval lies ${objective === 'kept-memory' ? 'below 0 or above it' : 'above 1 or below it'}`
    }${
      advice.rows.some((row) => row.mode === 'procs' && row.kind !== 'procs')
        ? '; (procs): a fix for processes alone, measured in procs alone and ranked among those by the procs’ interval, its memory and spread the procs’'
        : ''
    }`,
  );
  if (MITIGATION_RANKING.tasks.includes(task))
    notes.push(
      `published, not measured here: ${MITIGATION_RANKING.source}: ${MITIGATION_RANKING.rows
        .map((row, i) => `${i + 1}. ${row.fix}: ${row.effect}`)
        .join('; ')}`,
    );
  return notes;
}

/**
 * The verdict in one sentence: the best fix, its gain in each mode and its memory cost; or that
 * none is known to beat the baseline.
 * @param {Advice} advice
 */
export function adviceVerdictText(advice) {
  const objective = advice.for;
  const best = advice.rows.find((row) => row.name === advice.best);
  const forProcs = advice.rows.find((row) => row.name === advice.bestProcs);
  const procsPart = forProcs ? `; for processes: ${bestText(forProcs, 'procs')}` : '';
  if (objective !== 'throughput') {
    const { less } = OBJECTIVE_WORDS[objective];
    if (!best)
      return `no candidate is known to lower ${less} below the baseline’s (workers): every interval spans no change or lies above it (a longer --max-time narrows them)${procsPart}`;
    return `least ${less}: ${costText(best, objective)}${procsPart}`;
  }
  if (!best)
    return `no candidate’s workers throughput is known to beat the baseline’s: every interval spans 1 or lies below it (a longer --max-time narrows them)${procsPart}`;
  return `best: ${bestText(best, 'workers')}${procsPart}`;
}

/**
 * `ARENA_MAX 1: workers keep −12.3 MiB per worker against the baseline (95% CI …); throughput workers 0.95× (…), procs …`
 * @param {AdviceRow} row
 * @param {import('./advice.js').Objective} objective
 */
function costText(row, objective) {
  const score = /** @type {Change} */ (scoreIn(row));
  const by = score.difference
    ? `${differenceText(score.change, null, KEPT)} against the baseline’s${score.ci95 ? ` (95% CI ${score.ci95.map((end) => differenceText(end, null, KEPT)).join(' to ')})` : ''}`
    : `${fixed(score.change)}× the baseline’s${score.ci95 ? ` (${formatCI(score.ci95)})` : ''}`;
  const gains = MODES.flatMap((mode) => (row.gain[mode] ? [`${mode} ${times(row.gain[mode])}`] : [])).join(', ');
  return `${row.name}: ${OBJECTIVE_WORDS[objective].less} ${by}; throughput ${gains || 'not measured'}`;
}

/**
 * `reuse-buffer: workers 3.20× the baseline’s throughput (95% CI …), procs …; memory …`
 * @param {AdviceRow} row
 * @param {'workers'|'procs'} mode  the mode that ranked it
 */
function bestText(row, mode) {
  const gain = /** @type {Change} */ (row.gain[mode]);
  const other = mode === 'workers' ? 'procs' : 'workers';
  const also = row.gain[other] ? `, ${other} ${times(row.gain[other])}` : '';
  const memory = row.memory ? `; memory per worker ${percentCI(row.memory)}` : '';
  return `${row.name}: ${mode} ${fixed(gain.change)}× the baseline’s throughput (${formatCI(/** @type {[number, number]} */ (gain.ci95))})${also}${memory}`;
}

/**
 * advise's answer: the best fix and the line that applies it, then the ranking.
 * @param {import('../sweep/document.js').SweepDocument & { advice: import('./advice.js').Advice }} document
 * @returns {import('../../words/report-model.js').ReportModel}
 */
export function adviceAnswer(document) {
  const full = adviceModel(document);
  const [verdict, ...notes] = full.notes;
  // through a pool (--pool): every candidate ran through it; its process runtime is a row
  const pooled = document.points[0]?.pool;
  const pool = pooled ? poolText({ pool: { ...pooled, batch: null, dispatch: {} } }) : null;
  return { title: full.title, lines: pool ? [verdict, pool] : [verdict], tables: full.tables, notes: [...notes, MORE] };
}
