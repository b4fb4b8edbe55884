// How a sweep's points that differ in k alone read in words: each mode's scaling and memory per
// added worker, and the K to run, with what limits it.
import { plural, fixed, MODES, percentText } from '../../words/spelling.js';
import { groupName } from './k-plots.js';

/**
 * @typedef {import('./document.js').SweepDocument} SweepDocument
 * @typedef {SweepDocument['scaling'][number]} ScalingGroup
 */

const LIMIT_WORDS = /** @type {const} */ ({
  share: (/** @type {number} */ k) => `k=${k} added less`,
  cpus: () => 'no more CPUs',
  measured: () => 'the largest k measured',
});

/**
 * The K to run in each mode, the rule that chose it and the CPUs it was held to; null where no
 * mode has one.
 * @param {ScalingGroup} group
 * @param {SweepDocument} document
 */
export function recommendedText(group, document) {
  const picks = MODES.flatMap((mode) => {
    const recommended = group[mode].recommended;
    if (!recommended) return [];
    const stop = recommended.added.find((step) => step.k > recommended.k);
    return [`${mode} k=${recommended.k} (${LIMIT_WORDS[recommended.limit](stop?.k ?? recommended.k)})`];
  });
  if (!picks.length) return null;
  const { share, cpus } = /** @type {NonNullable<ScalingGroup['workers']['recommended']>} */ (
    group.workers.recommended
  );
  const cpu = document.environment?.cpu;
  const physical = cpu?.physicalCores ? `, ${plural(cpu.physicalCores, 'physical core')}` : '';
  const held =
    cpus === null ? '' : ` within the ${plural(cpus, 'CPU')} this process may use${cpuLimitText(cpu)}${physical}`;
  return `- run ${picks.join(', ')}: the largest k at which each added worker still added at least ${percentText(share)} of one worker's throughput${held}`;
}

/**
 * What holds the CPUs down, where something does: `(a cgroup quota of 1.5 CPUs; 16 on the host)`.
 * @param {any} cpu  a document's environment.cpu
 */
export function cpuLimitText(cpu) {
  if (!cpu?.usable) return '';
  const parts = [
    ...(cpu.quota !== null && cpu.quota !== undefined
      ? [`a cgroup quota of ${fixed(cpu.quota, 2).replace(/\.?0+$/, '')} CPUs`]
      : []),
    ...(cpu.affinity < cpu.host ? [`an affinity mask of ${cpu.affinity}`] : []),
  ];
  return parts.length ? ` (${parts.join(', ')}; ${cpu.host} on the host)` : '';
}

/**
 * The scaling reading in sentences: efficiency by k, where each mode stops gaining, where the ratio leaves 1.
 * @param {ScalingGroup} group
 * @param {SweepDocument} document
 */
export function scalingNotes(group, document) {
  // one k with rounds (a sweep stopped early) says nothing of scaling
  if (group.workers.steps.length < 2) return [];
  const name = groupName(group, document);
  const notes = [
    `scaling${name ? ` (${name})` : ''}, efficiency = throughput(k) / (k/${group.k0} × throughput(${group.k0})):`,
  ];
  for (const mode of MODES) {
    const { steps, stopsGaining, decided } = group[mode];
    const efficiency = steps.map((step) => `k=${step.k} ${fixed(step.efficiency)}`).join(', ');
    const gain = !decided
      ? 'too few rounds to tell where it stops gaining (3 or more at every k)'
      : stopsGaining
        ? `stops gaining after k=${stopsGaining.after} (k=${stopsGaining.at}'s throughput interval does not lie above k=${stopsGaining.after}'s)`
        : `still gaining at k=${steps[steps.length - 1].k}`;
    notes.push(`- ${mode}: ${efficiency}; ${gain}`);
  }
  for (const mode of MODES) {
    const { memory } = group[mode];
    if (!memory) continue;
    const trees = memory.steps.map((step) => fixed(step.treeMiB, 0)).join(', ');
    const ks = memory.steps.map((step) => step.k).join(', ');
    notes.push(
      `- ${mode} memory: the tree's anonymous memory ${trees} MiB at k=${ks}: ${fixed(memory.perWorkerMiB, 1)} MiB per added worker by the slope over ${memory.cells} cells (${fixed(memory.interceptMiB, 0)} MiB at k=0)`,
    );
  }
  const leaves = group.ratioLeaves1;
  notes.push(
    leaves
      ? `- the ratio's interval first leaves 1 at k=${leaves.k} (${leaves.side === 'below' ? 'procs' : 'workers'} faster there)`
      : "- the ratio's interval does not leave 1 at any k measured",
  );
  const run = recommendedText(group, document);
  if (run) notes.push(run);
  return notes;
}
