// Whether a set of values falls into two groups apart: a mixture of two normal distributions
// fitted by expectation-maximization, kept when it describes the values better than one normal
// by the Bayesian information criterion and its components lie apart by Ashman's D. (No
// well-kept npm library fits a one-dimensional mixture; this is the textbook algorithm.)
import { ckmeans, mean, variance } from 'simple-statistics';

/**
 * How many cells (fresh trees) are told apart into groups: at least `trees`, each group holding
 * at least `least(n)` of n (a tenth, and two): a lone slow tree is an outlier, not a group.
 */
export const GROUPED = {
  trees: 10,
  least: (/** @type {number} */ n) => Math.max(2, Math.ceil(n * 0.1)),
};

// above 2, two normal components separate cleanly (Ashman, Bird and Zweig 1994)
const APART = 2;
// the two-group fit must lower the BIC by this much: "strong" evidence (Kass and Raftery 1995)
const EVIDENCE = 6;
const ITERATIONS = 500;

/**
 * @typedef {{ weight: number, mean: number, variance: number }} Component
 */

const density = (/** @type {number} */ x, /** @type {Component} */ c) =>
  Math.exp(-((x - c.mean) ** 2) / (2 * c.variance)) / Math.sqrt(2 * Math.PI * c.variance);

/**
 * Each value's group (0: the lower, 1: the upper), when the values fall into two groups apart
 * each holding at least `least` of them; null otherwise.
 * @param {number[]} values
 * @param {number} least
 * @returns {number[] | null}
 */
export function twoGroups(values, least) {
  const n = values.length;
  if (n < 2 * least) return null;
  const total = variance(values);
  if (total === 0) return null;
  // a component narrower than this is one value, not a group
  const floor = total * 1e-3;
  const [low, high] = ckmeans(values, 2);
  if (!high) return null;
  /** @type {Component[]} */
  let components = [low, high].map((part) => ({
    weight: part.length / n,
    mean: mean(part),
    variance: Math.max(variance(part), floor),
  }));
  let likelihood = -Infinity;
  /** @type {number[][]} */
  let shares = [];
  for (let i = 0; i < ITERATIONS; i++) {
    shares = values.map((x) => {
      const p = components.map((c) => c.weight * density(x, c));
      const sum = p[0] + p[1] || Number.MIN_VALUE;
      return p.map((one) => one / sum);
    });
    const next = values.reduce(
      (sum, x) => sum + Math.log(components.reduce((s, c) => s + c.weight * density(x, c), 0) || Number.MIN_VALUE),
      0,
    );
    components = [0, 1].map((j) => {
      const weight = shares.reduce((s, share) => s + share[j], 0);
      const centre = values.reduce((s, x, k) => s + shares[k][j] * x, 0) / weight;
      const spread = values.reduce((s, x, k) => s + shares[k][j] * (x - centre) ** 2, 0) / weight;
      return { weight: weight / n, mean: centre, variance: Math.max(spread, floor) };
    });
    if (next - likelihood < 1e-9) break;
    likelihood = next;
  }
  const one = { weight: 1, mean: mean(values), variance: total };
  const single = values.reduce((sum, x) => sum + Math.log(density(x, one)), 0);
  const bic = (/** @type {number} */ ll, /** @type {number} */ parameters) => -2 * ll + parameters * Math.log(n);
  if (bic(single, 2) - bic(likelihood, 5) < EVIDENCE) return null;
  const [a, b] = components;
  if ((Math.SQRT2 * Math.abs(a.mean - b.mean)) / Math.sqrt(a.variance + b.variance) < APART) return null;
  const upper = a.mean > b.mean ? 0 : 1;
  const groups = shares.map((share) => (share[upper] >= 0.5 ? 1 : 0));
  const count = groups.reduce((s, g) => s + g, 0);
  return count < least || n - count < least ? null : groups;
}
