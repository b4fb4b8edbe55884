// Numbers as every output spells them: whole numbers grouped, fixed decimals, a duration in the
// unit that reads best.
const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
export const ops = (/** @type {number} */ value) => integer.format(value);
export const fixed = (/** @type {number} */ value, digits = 2) => value.toFixed(digits);
/** Seconds to two decimals, as the round and cell lengths are told: `0.10 s`. */
export const seconds = (/** @type {number} */ ns) => `${fixed(ns / 1e9)} s`;
/** @param {number} ns */
export function duration(ns) {
  if (ns >= 1e9) return `${fixed(ns / 1e9)} s`;
  if (ns >= 1e6) return `${fixed(ns / 1e6)} ms`;
  if (ns >= 1e3) return `${fixed(ns / 1e3, 1)} µs`;
  return `${Math.round(ns)} ns`;
}
