import { readFileSync } from 'node:fs';
import os from 'node:os';

const SAMPLES = 5;
const SAMPLE_MS = 20;
const PAUSE = new Int32Array(new SharedArrayBuffer(4));

/**
 * @typedef {object} MachineCheck  what else the machine was doing before the first round
 * @property {number | null} load1     the 1-minute load average (reported, not judged)
 * @property {number | null} runnable  other processes runnable in every one of a few samples
 * @property {number} cpus
 * @property {string | null} warning  one line when other work is competing, naming the figure
 */

/**
 * Looks at the machine before a run: two measurements at once on a small machine measure each
 * other, so other runnable work is worth one line of warning (not a refusal: the user may mean
 * it). The load average still carries this tool's own previous run, so it is only reported;
 * what is runnable now, in every one of a few samples 20 ms apart, is other work.
 * @returns {MachineCheck}
 */
export function checkMachine() {
  const cpus = os.availableParallelism();
  /** @type {number | null} */
  let load1 = null;
  /** @type {number | null} */
  let runnable = null;
  try {
    for (let sample = 0; sample < SAMPLES; sample++) {
      const [one, , , running] = readFileSync('/proc/loadavg', 'utf8').trim().split(/\s+/);
      load1 = Number(one);
      const others = Math.max(0, Number(running.split('/')[0]) - 1); // less this process, reading it
      runnable = runnable === null ? others : Math.min(runnable, others);
      Atomics.wait(PAUSE, 0, 0, SAMPLE_MS);
    }
  } catch {}
  const warning =
    runnable !== null && runnable > 0
      ? `other work is competing for the CPUs (${runnable} other runnable process${runnable === 1 ? '' : 'es'}, ` +
        `load average ${load1?.toFixed(2)} on ${cpus} CPUs): it is measured too; stop it for a steadier answer`
      : null;
  return { load1, runnable, cpus, warning };
}
