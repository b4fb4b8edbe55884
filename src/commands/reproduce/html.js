// The report page's section for a reproduce run: its published tables beside the measured ones.
import { plural } from '../../words/spelling.js';
import { reproducePoints } from '../../saved/reproduce-file.js';
import { forestChart, forestRow } from '../../view/charts.js';
import { section } from '../../view/html-page.js';

/**
 * @typedef {import('../../saved/load.js').Saved} Saved
 * @typedef {import('../../view/charts.js').Chart} Chart
 * @typedef {import('../../words/report-model.js').ReportModel} ReportModel
 * @typedef {import('../../view/html-page.js').Section} Section
 */

/**
 * A reproduce run: a forest of every setting's ratio, then its tables, published figures beside
 * measured ones.
 * @param {{ path: string, document: Pick<import('../../saved/reproduce-file.js').ResultsFile, 'header' | 'records' | 'end'> }} saved
 * @param {{ facts: Record<string, string>, models: ReportModel[] }} shown
 * @returns {Promise<Section>}
 */
export async function reproduceSection(saved, { facts, models }) {
  const { header, records, end } = saved.document;
  const rows = reproducePoints(saved.document).flatMap((point) =>
    point.ratio ? [forestRow(point.label, point.ratio)] : [],
  );
  const charts = rows.length
    ? [await forestChart(rows, { title: 'workers/procs of every setting, with its 95% CI' })]
    : [];
  return {
    charts: charts.length,
    html: section({
      heading: `reproduce: ${plural(new Set(records.map((r) => r.experiment)).size, 'experiment')}`,
      path: saved.path,
      document: {
        status: end?.status ?? 'ended without a report',
        mmapbench: header.mmapbench,
        environment: header.environment,
      },
      facts: { ...facts, k: String(header.options.k) },
      answer: [],
      charts,
      models,
      // its tables are the point: published figures beside measured ones, a verdict per claim
      open: true,
    }),
  };
}
