// The report page's sections for the files that hold no workers/procs rounds of their own
// making: a reproduce run (its published tables beside the measured ones) and an audit.
import { auditModel } from '../report/audit-model.js';
import { savedReportModels } from '../reproduce/models.js';
import { pointsOf } from '../results/points.js';
import { forestChart, forestRow } from './charts.js';
import { syscallChart, waitHistogram } from './charts-trace.js';
import { section } from './html-page.js';

/**
 * @typedef {import('../results/load.js').Saved} Saved
 * @typedef {import('./charts.js').Chart} Chart
 * @typedef {{ charts: number, html: string }} Section
 */

const plural = (/** @type {number} */ n, /** @type {string} */ word) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * @param {Extract<Saved, { kind: 'reproduce' }>} saved
 * @param {Record<string, string>} facts
 * @returns {Promise<Section>}
 */
export async function reproduceSection(saved, facts) {
  const rows = pointsOf(saved).flatMap((point) => (point.ratio ? [forestRow(point.label, point.ratio)] : []));
  const charts = rows.length
    ? [await forestChart(rows, { title: 'workers/procs of every setting, with its 95% CI' })]
    : [];
  return {
    charts: charts.length,
    html: section({
      heading: `reproduce: ${plural(new Set(saved.records.map((r) => r.experiment)).size, 'experiment')}`,
      path: saved.path,
      document: {
        status: saved.end?.status ?? 'ended without a report',
        mmapbench: saved.header.mmapbench,
        environment: saved.header.environment,
      },
      facts: { ...facts, k: String(saved.header.options.k) },
      answer: [],
      charts,
      models: savedReportModels(saved),
      // its tables are the point: published figures beside measured ones, a verdict per claim
      open: true,
    }),
  };
}

/**
 * An audit: one process tree, so no workers/procs comparison; its waits and where they came from.
 * @param {Extract<Saved, { kind: 'audit' }>} saved
 * @param {Record<string, string>} facts
 * @returns {Promise<Section>}
 */
export async function auditSection({ path, document }, facts) {
  const { trace } = document;
  /** @type {Chart[]} */
  const charts = [];
  if (trace.write.count) {
    const who = `pid ${document.target.pid}`;
    charts.push(await waitHistogram({ [who]: trace.write.histogram }));
    charts.push(
      await syscallChart(
        trace.bySyscall.write.map((row) => ({ series: who, name: row.name, waitNs: row.totalNs, count: row.count })),
        { per: '', over: `over the ${document.seconds.toFixed(1)} s traced` },
      ),
    );
  }
  return {
    charts: charts.length,
    html: section({
      heading: `trace: pid ${document.target.pid}`,
      path,
      document,
      facts: { ...facts, seconds: document.seconds.toFixed(1), stop: document.stop },
      answer: [],
      charts,
      models: [auditModel(document)],
      open: true,
    }),
  };
}
