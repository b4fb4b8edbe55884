// The report of a reproduce run, as models: from its document, so a
// live run and `mmapbench report` of its file show the same.
import { pointOf } from '../../points/points.js';
import { EXPERIMENTS } from './experiments.js';
import { experimentSection } from './sections.js';
import { environmentModel, summaryModel } from './summary.js';
import { lookOfRun, roundBounds } from './bounds.js';
import { protocolsOf, readingsOf, underProtocol } from './protocols.js';

/**
 * Each experiment's settings, once per protocol, to run in the same interleaved rounds.
 * @param {import('./experiments.js').Experiment[]} experiments
 * @param {import('./experiments.js').Machine} ctx
 * @param {{ protocol?: import('./protocols.js').ProtocolChoice }} options
 */
export const planOf = (experiments, ctx, options) =>
  experiments.map((experiment) => ({
    experiment,
    variants: experiment.variants(ctx).flatMap((v) => protocolsOf(options.protocol).map((p) => underProtocol(v, p))),
  }));

/**
 * The report of a run, from its document: what a live run prints and writes to REPORT.md, and
 * what `mmapbench report` prints from its file later.
 * @param {import('./types.js').ReproduceDocument} document
 * @param {ReturnType<typeof planOf>} plan
 * @param {string} file
 */
export function reportModels(document, plan, file) {
  const { options, records, environment } = document;
  const sections = plan.map(({ experiment, variants }) => {
    const cells = records.flatMap((r) => (r.type === 'cell' && r.experiment === experiment.name ? [r] : []));
    return {
      name: experiment.name,
      ...experimentSection(experiment, variants, cells, {
        look: lookOfRun(options, new Set(cells.map((cell) => cell.round)).size),
        k: options.k,
        cores: environment.cpu.logicalCores,
        quick: options.quick,
        protocols: readingsOf(options.protocol, experiment, options),
        // what upstream changed under its claim, on the Node the cells ran on
        premise: experiment.premise?.({ jemalloc: { path: null }, node: environment.node }) ?? null,
      }),
    };
  });
  // REPORT.md's headings: the machine first, then a part each
  return [
    { ...environmentModel(document, { file, bounds: roundBounds(options) }), level: 1 },
    ...[summaryModel(sections, { quick: options.quick }), ...sections.map((s) => s.model)].map((model) => ({
      ...model,
      level: 2,
    })),
  ];
}

/**
 * A saved reproduce run's report, as it printed: the experiments with cells in the file.
 * @param {import('./types.js').ReproduceDocument} document
 * @param {string} path  the file it was read from
 */
export function savedReportModels(document, path) {
  const names = new Set(document.records.map((record) => record.experiment));
  const plan = planOf(
    EXPERIMENTS.filter((experiment) => names.has(experiment.name)),
    { jemalloc: { path: document.jemalloc }, nodes: document.nodes, node: document.environment.node },
    document.options,
  );
  return reportModels(document, plan, path);
}

/**
 * reproduce's answer: every claim's verdict; the machine, the published figures and each
 * experiment's tables are --verbose's.
 * @param {import('../../words/report-model.js').ReportModel[]} models  the whole report: the machine, the verdicts, a section each
 * @returns {import('../../words/report-model.js').ReportModel[]}
 */
export function reproduceAnswer([machine, verdicts]) {
  const status = machine.tables[0]?.rows.find((row) => row[0] === 'status')?.[1];
  return [
    {
      ...verdicts,
      level: 1,
      title: `${machine.title}${status && status !== 'complete' ? ` — ${status}` : ''}`,
      notes: [
        ...verdicts.notes,
        'more: --verbose prints the machine, the published figures beside each experiment, and its rounds',
      ],
    },
  ];
}

/**
 * A reproduce run's points: one per experiment and setting, its rounds gathered from the cell
 * records.
 * @param {Pick<import('./types.js').ReproduceDocument, 'options' | 'records'>} document
 * @returns {import('../../points/points.js').Point[]}
 */
export const reproducePoints = ({ options, records }) => {
  /** @type {Map<string, { experiment: string, variant: string, rounds: Map<number, import('../../points/points.js').Round> }>} */
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
    pointOf({ experiment, variant, task: '', k: options.k }, [...rounds.values()], { id }),
  );
};
