// A plain pool app's task module (../plain-host.js): its workers load the task and set it up on
// their first pool task, and each pool task runs `ops` of its ops and says how many page faults
// they took. It imports ../plain-ops.js (node:fs) and the task alone, as plain-member.js does.
// tinypool's and piscina's `filename`; workerpool's workers register it (plain-workerpool.js).
import { minorFaults, setUpPlain } from '../plain-ops.js';

/** @type {ReturnType<typeof setUpPlain> | null} this worker's task, set up */
let ready = null;

/**
 * @param {{ spec: import('../plain-ops.js').PlainSpec, index: number, ops: number }} message
 * @returns {Promise<{ ops: number, minflt: number, pid: number }>}
 */
export default async function plainTask({ spec, index, ops }) {
  ready ??= setUpPlain(spec, index);
  const { run } = await ready;
  const faults = minorFaults();
  await run(ops);
  return { ops, minflt: minorFaults() - faults, pid: process.pid };
}
