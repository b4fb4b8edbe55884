// reproduce --list: every experiment, the claim it tests, whether it runs here, its time.
import { columnLines, renderMarkdown, renderTerminal, wrapText } from '../../view/table.js';
import { usageError } from '../../errors.js';
import { EXPERIMENTS } from './experiments.js';
import { roundBounds } from './bounds.js';
import { approxTime, estimate } from './estimate.js';
import { PUBLISHED, readingsOf } from './protocols.js';

/** @typedef {import('../../words/report-model.js').ReportModel} ReportModel */

/**
 * @param {import('./experiments.js').Machine} ctx
 * @param {import('./types.js').ReproduceOptions} options
 * @param {{ width: number, markdown?: boolean, names?: string[] }} how  names: the experiments to
 *   describe in full; none: every experiment, a line each
 */
export function listing(ctx, options, { width, markdown, names = [] }) {
  // the time of what would run: a release not installed yet counts as the one a run installs
  const wouldRun = {
    ...ctx,
    jemalloc: { path: ctx.jemalloc.path ?? 'libjemalloc.so.2' },
    nodes: ctx.nodes?.map((node) =>
      node.install ? { ...node, path: node.label, version: node.install, hasOption: true } : node,
    ),
  };
  const unknown = names.filter((name) => !EXPERIMENTS.some((experiment) => experiment.name === name));
  if (unknown.length)
    throw usageError(
      `no experiment ${unknown.join(', ')}; the experiments are ${EXPERIMENTS.map((experiment) => experiment.name).join(', ')}`,
    );
  const chosen = names.length ? EXPERIMENTS.filter((experiment) => names.includes(experiment.name)) : EXPERIMENTS;
  const rows = chosen.map((experiment) => {
    const variants = experiment.variants(wouldRun);
    const why = experiment.unavailable?.(ctx);
    const installs = experiment.installs?.(ctx) ?? [];
    const premise = experiment.premise?.(ctx);
    return [
      experiment.name,
      `${experiment.hypothesis}: ${experiment.claim}${premise ? ` (${premise})` : ''}`,
      experiment.needs,
      why
        ? `skipped: ${why}`
        : installs.length
          ? `runs; will install ${installs.join(' and ')} from the npm registry first`
          : 'runs',
      `${approxTime(estimate(variants, options, false))} (--quick ${approxTime(estimate(variants, options, true))})`,
      decidedOn(readingsOf(options.protocol, experiment, options)),
    ];
  });
  const [min] = roundBounds(options);
  if (!names.length && !markdown) return lineEach(rows, options, width);
  const model = {
    title: `mmapbench reproduce: ${EXPERIMENTS.length} experiments (times at k=${options.k}, ${min} rounds of ~${options.duration} s cells; undecided claims add rounds)`,
    tables: [
      {
        head: ['experiment', 'claim it tests', 'needs', 'on this machine', 'time', 'claims decided on'],
        rows,
        align: ['left', 'left', 'left', 'left', 'left', 'left'],
        widths: [16, 44, 26, 30, 24, 30],
      },
    ],
    notes: [],
  };
  return markdown ? renderMarkdown(model) : renderTerminal(model, { width });
}

/**
 * What an experiment's claims are decided on under the run's --protocol, and what is shown beside.
 * @param {import('./protocols.js').Reading[]} readings  the deciding one first
 */
const decidedOn = ([deciding, beside]) =>
  `${
    {
      fresh: `fresh: each worker's first ${PUBLISHED.iterations.toLocaleString('en-US')} ops, as published`,
      steady: 'warm cells (steady)',
      published: `published cells: ${PUBLISHED.iterations.toLocaleString('en-US')} ops, no warm-up`,
    }[deciding]
  }${beside ? '; warm beside' : ''}`;

/**
 * Every experiment a line: its name, whether it runs here, its time, and the claim, wrapped
 * between words under itself (as `tasks` lists them).
 * @param {string[][]} rows  the listing's rows
 * @param {import('./types.js').ReproduceOptions} options
 * @param {number} width
 */
function lineEach(rows, options, width) {
  const [min] = roundBounds(options);
  const lines = columnLines(
    rows.map(([name, claim, , here, time, decided]) => [
      name,
      here === 'runs' ? 'runs' : here.startsWith('skipped') ? 'skipped' : 'installs',
      time.replace(/ \(--quick.*/, ''),
      decided.startsWith('warm') ? 'warm' : decided.split(/[: ]/)[0],
      claim,
    ]),
    { min: [0, 8, 7, 9], width },
  );
  return `${[
    `mmapbench reproduce: ${EXPERIMENTS.length} experiments; \`reproduce --list NAME\` describes one`,
    ...lines,
    wrapText(
      `times at k=${options.k}, ${min} rounds of ~${options.duration} s cells (undecided claims add rounds); skipped: \`reproduce --list NAME\` says why; fresh: claims decided on ${decidedOn(['fresh', 'steady']).slice('fresh: '.length)}; warm: on warm cells (--protocol changes which)`,
      width,
    ),
  ].join('\n')}\n`;
}
