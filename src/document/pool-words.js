// A pool run (compare --pool) in words: which pool, whose copy, its two runtimes as the arms, the
// ops of a pool task and what dispatching them cost, for the answer, the page and report.
import { percentText, plural } from '../words/spelling.js';

/**
 * `through tinypool 2.2.0 (mmapbench's own: your project has none): workers = runtime:
 * 'worker_threads', procs = runtime: 'child_process'; 61 ops of the task a pool task; the pool's
 * own share of its workers' windows (dispatch, queue, messages): workers 4% (38 µs a task), procs
 * 12% (120 µs a task)`. Null
 * without a pool.
 * @param {Pick<import('./document.js').ResultsDocument, 'pool'>} document
 */
export function poolText({ pool }) {
  if (!pool) return null;
  const whose = pool.from === 'project' ? "your project's" : "mmapbench's own: your project has none";
  const shares = /** @type {const} */ (['workers', 'procs']).flatMap((mode) => {
    const share = pool.dispatch[mode];
    const us = pool.perTaskUs?.[mode];
    return typeof share === 'number'
      ? [`${mode} ${percentText(share)}${typeof us === 'number' ? ` (${Math.round(us)} µs a task)` : ''}`]
      : [];
  });
  return [
    `through ${pool.name} ${pool.version} (${whose}): workers = ${pool.runtimes.workers}, procs = ${pool.runtimes.procs}`,
    pool.isolate ? 'a fresh worker for every pool task (isolateWorkers)' : null,
    pool.batch === null ? null : `${plural(pool.batch, 'op')} of the task a pool task`,
    shares.length
      ? `the pool's own share of its workers' windows (dispatch, queue, messages): ${shares.join(', ')}`
      : null,
  ]
    .filter(Boolean)
    .join('; ');
}
