// The report page's section for an audit (trace --pid, trace -- COMMAND).
import { syscallChart, waitHistogram } from './charts.js';
import { section } from '../../view/html-page.js';

/**
 * @typedef {import('../../saved/load.js').Saved} Saved
 * @typedef {import('../../view/charts.js').Chart} Chart
 * @typedef {import('../../words/report-model.js').ReportModel} ReportModel
 * @typedef {import('../../view/html-page.js').Section} Section
 */

/**
 * An audit: one process tree, so no workers/procs comparison; its waits and where they came from.
 * @param {{ path: string, document: import('./audit.js').AuditDocument }} saved
 * @param {{ facts: Record<string, string>, models: ReportModel[] }} shown
 * @returns {Promise<Section>}
 */
export async function auditSection({ path, document }, { facts, models }) {
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
      models,
      open: true,
    }),
  };
}
