import jstat from 'jstat';
import { mean, sampleStandardDeviation } from 'simple-statistics';
import { bandOf, meanInterval, sideOf } from './ratio.js';

/**
 * compare's verdict, honest however often it is looked at: the rounds' log ratios are looked at
 * after every round through a confidence sequence (an interval valid at every look at once), and
 * the run stops as soon as it decides; at the budget, one last fixed-n interval decides what the
 * sequence did not. The error is split between the two (Bonferroni): the sequence is built at
 * SEQUENCE_ALPHA, the last look at FINAL_ALPHA, so the chance of a false "faster" over the whole
 * run is at most ALPHA. A sequence alone would be ~2x wider than a fixed-n interval at the budget;
 * the last look is 2.4% wider at 44 rounds (t at 97.75% against 97.5%). docs/how-it-measures.md
 * has the simulation and the A/A runs.
 */
export const ALPHA = 0.05;
export const SEQUENCE_ALPHA = 0.005;
export const FINAL_ALPHA = ALPHA - SEQUENCE_ALPHA;
/** Rounds before the sequence may decide (as the width rule waits for): with fewer, its spread is guessed from too little. */
export const SEQUENCE_ROUNDS = 5;
/** The rounds the sequence is narrowest at (its mixture's ρ is tuned for them). */
const TUNED_ROUNDS = 16;
/** "Equal" means within ± this, unless --margin says otherwise. */
export const MARGIN = 0.1;

/**
 * Rounds below which a ratio's t interval is too wide to mean anything (0.00-622481.81): no
 * verdict, no noise floor and no `better` is read from fewer.
 */
export const INTERVAL_ROUNDS = 3;

/**
 * The half-width, on the log scale, of a normal-mixture confidence sequence for the mean
 * (Robbins; Howard et al. 2021, arXiv 1810.08240, eq. 14; the plug-in form of Waudby-Smith et al.,
 * arXiv 2103.06476): |mean − μ| ≤ σ·√(2(nρ²+1)/(n²ρ²) · log(√(nρ²+1)/α)) at every n at once.
 * With σ estimated from few rounds that boundary undercovers, so its z-value is read as a
 * Student t(n−1) value of the same tail (looks from round 5: 3.4% misses become 0.25% at α = 0.5%;
 * scripts/verdict-sim.js).
 * @param {number} sd  of the log ratios
 * @param {number} n
 */
export function sequenceHalfWidth(sd, n, alpha = SEQUENCE_ALPHA) {
  const rho2 = (-2 * Math.log(alpha) + Math.log(1 - 2 * Math.log(alpha))) / TUNED_ROUNDS;
  const spread = n * rho2 + 1;
  const z = Math.sqrt(((2 * spread) / (n * rho2)) * Math.log(Math.sqrt(spread) / alpha));
  return (jstat.studentt.inv(jstat.normal.cdf(z, 0, 1), n - 1) * sd) / Math.sqrt(n);
}

/**
 * The interval a look gives, as a ratio: `sequence` (any look, from SEQUENCE_ROUNDS on), `final`
 * (the one last look at the budget), or `fixed` (rounds fixed in advance, or stopped at a width
 * the user asked for: an ordinary 95% t interval); null with fewer than 2 rounds.
 * @param {number[]} ratios  per round
 * @param {Look} look
 * @returns {[number, number] | null}
 */
export function lookInterval(ratios, look) {
  const n = ratios.length;
  if (n < 2) return null;
  const logs = ratios.map(Math.log);
  const interval = look === 'sequence' ? sequenceInterval(logs) : meanInterval(logs, confidenceOf(look)).ci95;
  return interval && [Math.exp(interval[0]), Math.exp(interval[1])];
}

/**
 * The confidence sequence's interval for the mean of values on an additive scale (log ratios, or
 * differences): valid at every look at once; null with fewer than 2 values.
 * @param {number[]} values
 * @returns {[number, number] | null}
 */
export function sequenceInterval(values) {
  if (values.length < 2) return null;
  const centre = mean(values);
  const half = sequenceHalfWidth(sampleStandardDeviation(values), values.length);
  return [centre - half, centre + half];
}

/** @typedef {'sequence'|'final'|'fixed'} Look */

/**
 * What an interval decides: one arm faster (it excludes 1), equal within ±margin (it lies inside
 * [1/(1+margin), 1+margin]), or neither.
 * @param {[number, number] | null} interval  arm A over arm B
 * @param {number} margin
 * @returns {'workers'|'procs'|'equal'|null}
 */
export function decision(interval, margin) {
  const side = sideOf(interval, 1);
  if (side === 'above') return 'workers';
  if (side === 'below') return 'procs';
  return bandOf(interval, [1 / (1 + margin), 1 + margin]) === 'inside' ? 'equal' : null;
}

/** The confidence of a look's interval. @param {Look} look */
export const confidenceOf = (look) =>
  1 - (look === 'final' ? FINAL_ALPHA : look === 'sequence' ? SEQUENCE_ALPHA : ALPHA);

/**
 * @typedef {object} Verdict  the answer to "which is faster?", as data
 * @property {'workers'|'procs'|'equal'|'inconclusive'} outcome  arm A (workers) or B (procs)
 *   faster, equal within ±margin, or neither when the rounds ran out
 * @property {'workers'|'procs'|null} faster
 * @property {boolean} significant  one arm is faster: the interval excludes 1
 * @property {'below'|'above'|'spans'|null} side  of the interval against 1
 * @property {[number, number] | null} interval  the one the outcome was read from
 * @property {Look} look
 * @property {number} confidence  of a fixed-n interval, or of the sequence
 * @property {number} margin
 */

/**
 * The verdict of a run's rounds at the look it stopped at.
 * @param {number[]} ratios  per round, arm A over arm B
 * @param {{ look: Look, margin: number }} rule
 * @returns {Verdict}
 */
export function verdictOf(ratios, { look, margin }) {
  const { look: at, confidence, ...read } = lookAt(ratios, look);
  // two rounds' interval decides nothing, however close they happen to lie
  const interval = ratios.length < INTERVAL_ROUNDS ? null : read.interval;
  const decided = decision(interval, margin);
  return {
    outcome: decided ?? 'inconclusive',
    faster: decided === 'workers' || decided === 'procs' ? decided : null,
    significant: decided === 'workers' || decided === 'procs',
    side: sideOf(interval, 1),
    interval,
    look: at,
    confidence,
    margin,
  };
}

/**
 * The interval of rounds read at a look, with the look it was (a sequence before its first look is
 * no interval at all: the fixed one then, said as such) and its confidence.
 * @param {number[]} ratios  per round
 * @param {Look} look
 * @returns {{ interval: [number, number] | null, look: Look, confidence: number }}
 */
export function lookAt(ratios, look) {
  const at = look === 'sequence' && ratios.length < SEQUENCE_ROUNDS ? 'fixed' : look;
  return { interval: lookInterval(ratios, at), look: at, confidence: confidenceOf(at) };
}

/**
 * Whether the sequence has decided after these rounds: the stop rule's look.
 * @param {number[]} ratios
 * @param {number} margin
 */
export const sequenceDecides = (ratios, margin) =>
  ratios.length >= SEQUENCE_ROUNDS && decision(lookInterval(ratios, 'sequence'), margin) !== null;

/**
 * The interval a run's rounds so far are shown with as it goes (its progress, `--ci`'s round
 * lines): where it stops once decided, the sequence its rule looks through, from its first look;
 * else a fixed-n 95% one from 3 rounds (fewer give an interval too wide to mean anything).
 * @param {number[]} ratios
 * @param {boolean} sequential
 * @returns {{ interval: [number, number], confidence: number, look: Look } | null}
 */
export function soFarInterval(ratios, sequential) {
  const look = sequential ? 'sequence' : 'fixed';
  const interval = ratios.length >= (sequential ? SEQUENCE_ROUNDS : 3) ? lookInterval(ratios, look) : null;
  return interval && { interval, confidence: confidenceOf(look), look };
}
