// The report of a reproduce run, as models: from its results file's header and records, so a
// live run and `mmapbench report` of its file show the same.
import { EXPERIMENTS } from './experiments.js';
import { experimentSection } from './sections.js';
import { environmentModel, summaryModel } from './summary.js';
import { roundBounds } from './bounds.js';
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
 * The report of a run, from its results file's header and records: what a live run prints
 * and writes to REPORT.md, and what `mmapbench report` prints from the file later.
 * @param {{ header: import('../../saved/reproduce-file.js').RunHeader, options: import('./runner.js').ReproduceOptions,
 *   records: import('../../saved/reproduce-file.js').ResultRecord[], plan: ReturnType<typeof planOf>, status: string,
 *   file: string, skipped: Array<{ name: string, reason: string }> }} run
 */
export function reportModels({ header, options, records, plan, status, file, skipped }) {
  const sections = plan.map(({ experiment, variants }) => ({
    name: experiment.name,
    ...experimentSection(
      experiment,
      variants,
      records.flatMap((r) => (r.type === 'cell' && r.experiment === experiment.name ? [r] : [])),
      {
        k: options.k,
        cores: header.environment.cpu.logicalCores,
        quick: options.quick,
        protocols: readingsOf(options.protocol, experiment, options),
        // what upstream changed under its claim, on the Node the cells ran on
        premise: experiment.premise?.({ jemalloc: { path: null }, node: header.environment.node }) ?? null,
      },
    ),
  }));
  return [
    environmentModel({ header, status, file, skipped, bounds: roundBounds(options) }),
    summaryModel(sections, { quick: options.quick }),
    ...sections.map((s) => s.model),
  ];
}

/**
 * A saved reproduce run's report, as it printed (see loadResults): the experiments with cells
 * in the file, and the status its last `end` record gave, if the run got that far.
 * @param {Pick<import('../../saved/reproduce-file.js').ResultsFile, 'header' | 'records' | 'end'> & { path: string }} saved
 */
export function savedReportModels({ header, records, end, path }) {
  const names = new Set(records.map((record) => record.experiment));
  const plan = planOf(
    EXPERIMENTS.filter((experiment) => names.has(experiment.name)),
    { jemalloc: { path: header.jemalloc }, nodes: header.nodes, node: header.environment.node },
    header.options,
  );
  return reportModels({
    header,
    options: header.options,
    records,
    plan,
    status: end?.status ?? 'ended without a report (killed): resume with --resume',
    file: path,
    skipped: end?.skipped ?? [],
  });
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
      title: `${machine.title}${status && status !== 'complete' ? ` — ${status}` : ''}`,
      notes: [
        ...verdicts.notes,
        'more: --verbose prints the machine, the published figures beside each experiment, and its rounds',
      ],
    },
  ];
}
