// What advise's ranking holds, as types: the document's `advice` (advice.js builds it). Kept
// apart so the sweep's document, which carries it, names it without importing its builder.

/**
 * @typedef {import('./candidates.js').Candidate} Candidate
 * @typedef {ReturnType<typeof import('../../stats/ratio.js').changeBetween> & { difference?: true }} Change  a ratio new/base,
 *   or with `difference` new − base in the measure's unit
 *
 * @typedef {'throughput'|'memory'|'kept-memory'|'main-latency'} Objective  what advise ranks by
 *
 * @typedef {object} AdviceRow
 * @property {string} id  the candidate's point
 * @property {string} name
 * @property {Exclude<Candidate['kind'], 'k'> | 'procs'} kind  procs: the baseline run as processes instead of threads
 * @property {string} apply
 * @property {'workers'|'procs'} mode  the mode whose gain ranks it: the workers', or the one mode
 *   a candidate runs in alone (a message's serialization: procs)
 * @property {'measured'|'unavailable'|'failed'|'too few rounds'} status
 * @property {string | null} why  why it has no figures
 * @property {Record<'workers'|'procs', Change | null>} gain  its throughput over the baseline's
 * @property {Record<'workers'|'procs', Change | null>} score  what ranks it (`Advice.for`)
 *   against the baseline's: its throughput (then the same as `gain`), its memory per added
 *   worker, the app's request p99 (ratios) or what the app kept (a difference in MiB)
 * @property {import('../../stats/ratio.js').RatioStats | null} ratio  its workers/procs
 * @property {Change | null} memory  its workers' memory per worker over the baseline's
 * @property {number | null} spread  the standard deviation of its workers' cells' log ops/s
 * @property {'better'|'worse'|'unclear'|null} verdict  whether its gain in its mode is known to
 *   be above 1 or below it, Holm-corrected over every candidate's test (unclear: not), or null
 *   without an interval
 * @property {[number, number] | null} rank  its place among the measured rows of its mode: the
 *   best and the worst it could be, given the intervals that overlap its own (1, 1: first;
 *   2, 6: somewhere from second to sixth, tied with the others there)
 * @property {{ round: number, leader: string } | null} [dropped]  raced out: after which round,
 *   and the leader whose interval lay wholly above its own
 *
 * @typedef {object} Advice  the document's `advice` (docs/json.md)
 * @property {string} baseline  the baseline's point id
 * @property {Objective} for  what the rows are ranked by
 * @property {AdviceRow[]} rows  ranked: measured candidates by workers gain, then the rest
 * @property {Array<{ name: string, install: string }>} missing  allocators not found, never installed
 * @property {Array<{ name: string, reason: string }>} skipped  candidates that could not be planned
 * @property {Array<{ name: string, why: string }>} defaults  fixes that are the cells' Node's own
 *   default (a pool size it has already), not measured
 * @property {string | null} best  the name of the best candidate whose score is known to be
 *   better than the baseline's
 * @property {string | null} bestProcs  the same among the fixes for processes alone (a
 *   message's serialization)
 */

export {};
