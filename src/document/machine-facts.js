// The facts of a machine that can change a run's figures, listed once: what diff and the report
// page list and a resumed run must share (machineFacts), what a header's line says (factsLine),
// and the rows of reproduce's report.
import { envText } from '../points/point-name.js';
import { cpusText } from '../system/cpus.js';

/**
 * @typedef {import('./document.js').Environment} Environment
 * @typedef {object} Fact
 * @property {string} name
 * @property {((env: Environment) => string) | null} of  its value, 'n/a' where the file did not keep
 *   it; null: in a header's line alone (a fact an older file lacks, which a resumed run or a diff
 *   must not read as a change)
 * @property {((env: Environment) => string | null) | null} line  how a header's line says it;
 *   null: not in the line (a table's fact alone), or where the result is null
 */

/** @type {Fact[]} */
const FACTS = [
  { name: 'kernel', of: (env) => env.kernel, line: (env) => env.kernel },
  { name: 'glibc', of: (env) => env.glibc ?? 'n/a', line: (env) => `glibc ${env.glibc ?? 'n/a'}` },
  { name: 'CPU', of: (env) => env.cpu.model ?? 'unknown', line: null },
  {
    name: 'cores',
    of: (env) => `${env.cpu.logicalCores} logical, ${env.cpu.physicalCores} physical`,
    line: (env) => cpusText(env.cpu),
  },
  { name: 'THP', of: (env) => env.thp ?? 'n/a', line: (env) => `THP ${env.thp ?? 'n/a'}` },
  {
    name: 'per-VMA locks',
    of: null,
    line: (env) => (perVma(env) === null ? null : `per-VMA locks ${perVma(env)}`),
  },
  {
    name: 'libuv pool',
    of: (env) => String(env.uvThreadpoolSize ?? 'n/a'),
    // Node's own default where an older file did not keep it
    line: (env) => `libuv pool ${env.uvThreadpoolSize ?? 4}`,
  },
  { name: 'allocator env', of: (env) => envText(env.allocatorEnv) || 'none', line: null },
];

/**
 * Whether the kernel locks per VMA; null where the file did not keep it (older than the field).
 * @param {Environment} env
 */
const perVma = (env) =>
  env.perVmaLock === undefined ? null : env.perVmaLock === null ? 'unknown' : env.perVmaLock ? 'yes' : 'no';

/**
 * The facts by name, in their order: what diff and the report page list, what an export's line
 * says, what a resumed run must share.
 * @param {Environment} env
 * @returns {Record<string, string>}
 */
export const machineFacts = (env) =>
  Object.fromEntries(FACTS.flatMap((fact) => (fact.of ? [[fact.name, fact.of(env)]] : [])));

/**
 * What a header's line says of the machine, a fact each.
 * @param {Environment} env
 * @returns {string[]}
 */
export const factsLine = (env) => FACTS.flatMap((fact) => fact.line?.(env) ?? []);
