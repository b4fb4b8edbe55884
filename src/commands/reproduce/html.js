// The report page's section for a reproduce run: its published tables beside the measured ones.
import { plural } from '../../words/spelling.js';
import { reproducePoints } from './models.js';
import { statusSentence } from '../../document/status-words.js';
import { forestChart, forestRow } from '../../view/charts.js';
import { section } from '../../view/html-page.js';
import { cellsUnder } from './protocols.js';

/**
 * @typedef {import('../../saved/load.js').Saved} Saved
 * @typedef {import('../../view/charts.js').Chart} Chart
 * @typedef {import('../../words/report-model.js').ReportModel} ReportModel
 * @typedef {import('../../view/html-page.js').Section} Section
 */

/**
 * A reproduce run: a forest of every setting's ratio, then its tables, published figures beside
 * measured ones.
 * @param {{ path: string, document: import('./types.js').ReproduceDocument }} saved
 * @param {{ facts: Record<string, string>, models: ReportModel[] }} shown
 * @returns {Promise<Section>}
 */
export async function reproduceSection(saved, { facts, models }) {
  const { document } = saved;
  const { records } = document;
  // under --protocol fresh each setting's fresh workers' first 2,000 ops too, which decide the
  // investigation's claims, above its ratio once warm
  // (a cell whose warm-up timed no batch has no first 2,000 ops: a --quick run's, a related
  // source's)
  const cells = records.flatMap((record) => (record.type === 'cell' ? [record] : []));
  const timed = cellsUnder(cells, 'fresh').filter((record) => typeof record.cell.throughput === 'number');
  const fresh = new Map(
    document.options.protocol === 'fresh'
      ? reproducePoints({ options: document.options, records: timed }).map((point) => [point.id, point.ratio])
      : [],
  );
  const rows = reproducePoints(saved.document).flatMap((point) => {
    const first = fresh.get(point.id);
    return [
      ...(first ? [forestRow(`${point.label} · first 2k ops`, first)] : []),
      ...(point.ratio ? [forestRow(first ? `${point.label} · warm` : point.label, point.ratio)] : []),
    ];
  });
  const charts = rows.length
    ? [await forestChart(rows, { title: 'workers/procs of every setting, with its 95% CI' })]
    : [];
  return {
    charts: charts.length,
    html: section({
      heading: `reproduce: ${plural(new Set(records.map((r) => r.experiment)).size, 'experiment')}`,
      path: saved.path,
      document: {
        status: statusSentence(document),
        mmapbench: document.mmapbench,
        environment: document.environment,
      },
      facts: { ...facts, k: String(document.options.k) },
      answer: [],
      charts,
      models,
      // its tables are the point: published figures beside measured ones, a verdict per claim
      open: true,
    }),
  };
}
