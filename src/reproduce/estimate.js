// How long a reproduce run takes, before it runs: for --list and the progress bar only.
import { renderMarkdown, renderTerminal } from '../report/table.js';
import { EXPERIMENTS } from './experiments.js';
import { roundBounds } from './bounds.js';
import { cellSeconds, COSTS } from '../run/estimate.js';
import { cellsPerRound } from './runner.js';

const approxTime = (/** @type {number} */ seconds) =>
  seconds < 90 ? `~${Math.max(1, Math.round(seconds))} s` : `~${Math.round(seconds / 60)} min`;

/**
 * @param {import('./experiments.js').Variant[]} variants
 * @param {import('./runner.js').ReproduceOptions} options
 * @param {boolean} quick
 */
export function estimate(variants, options, quick) {
  const [min] = roundBounds({ ...options, quick });
  const cell = cellSeconds(quick ? 0 : options.duration, options.k);
  const traced = cellsPerRound(variants.filter((variant) => variant.trace)) * min * COSTS.traceAttach;
  return cellsPerRound(variants) * min * cell + traced + (quick ? 0 : variants.length * COSTS.calibration);
}

/**
 * @param {import('./experiments.js').Machine} ctx
 * @param {import('./runner.js').ReproduceOptions} options
 * @param {{ width: number, markdown?: boolean }} how
 */
export function listing(ctx, options, { width, markdown }) {
  // the time of what would run: a release not installed yet counts as the one a run installs
  const wouldRun = {
    ...ctx,
    jemalloc: { path: ctx.jemalloc.path ?? 'libjemalloc.so.2' },
    nodes: ctx.nodes?.map((node) =>
      node.install ? { ...node, path: node.label, version: node.install, hasOption: true } : node,
    ),
  };
  const rows = EXPERIMENTS.map((experiment) => {
    const variants = experiment.variants(wouldRun);
    const why = experiment.unavailable?.(ctx);
    const installs = experiment.installs?.(ctx) ?? [];
    return [
      experiment.name,
      `${experiment.hypothesis}: ${experiment.claim}`,
      experiment.needs,
      why
        ? `skipped: ${why}`
        : installs.length
          ? `runs; will install ${installs.join(' and ')} from the npm registry first`
          : 'runs',
      `${approxTime(estimate(variants, options, false))} (--quick ${approxTime(estimate(variants, options, true))})`,
    ];
  });
  const [min] = roundBounds(options);
  const model = {
    title: `mmapbench reproduce: ${EXPERIMENTS.length} experiments (times at k=${options.k}, ${min} rounds of ~${options.duration} s cells; undecided claims add rounds)`,
    tables: [
      {
        head: ['experiment', 'claim it tests', 'needs', 'on this machine', 'time'],
        rows,
        align: ['left', 'left', 'left', 'left', 'left'],
        widths: [16, 44, 26, 30, 24],
      },
    ],
    notes: [],
  };
  return markdown ? renderMarkdown(model) : renderTerminal(model, { width });
}
