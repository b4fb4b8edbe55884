// How every output spells numbers, sizes and lists, and the two modes in the order it shows them.

// Sizes: what a user types (64k, 8m, 64KiB) and what the output prints.

/** @type {Record<string, number>} */
const UNITS = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 };

/**
 * Parses `64k`, `8m`, `512`, `1.5m`, `64KiB` into bytes; null when it is not a size (or not a
 * whole number of bytes).
 * @param {unknown} text
 * @returns {number | null}
 */
export function parseSize(text) {
  // digits as a count is written (vocabulary.js's WHOLE), then a fraction of a unit: 1.5k
  const match = /^((?:0|[1-9]\d*)(?:\.\d+)?)\s*([kmg]?)(?:i?b)?$/i.exec(String(text).trim());
  if (!match) return null;
  // a whole number of bytes: 1.5k is 1536, 1.5 is no size
  const bytes = Number(match[1]) * UNITS[match[2].toLowerCase()];
  return Number.isSafeInteger(bytes) ? bytes : null;
}

/** @param {number} bytes */
export function formatSize(bytes) {
  for (const [unit, size] of /** @type {Array<[string, number]>} */ ([
    ['GiB', 1024 ** 3],
    ['MiB', 1024 ** 2],
    ['KiB', 1024],
  ])) {
    if (bytes >= size && bytes % size === 0) return `${bytes / size} ${unit}`;
  }
  return bytes >= 1024 ? `${(bytes / 1024).toFixed(1)} KiB` : `${bytes} B`;
}

// Numbers as every output spells them: whole numbers grouped, fixed decimals, a duration in the
// unit that reads best.
// made on first use: building it starts ICU, about 20 ms that `mmapbench --help` never needs
/** @type {Intl.NumberFormat | undefined} */
let integer;
export const ops = (/** @type {number} */ value) =>
  (integer ??= new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 })).format(value);
export const fixed = (/** @type {number} */ value, digits = 2) => value.toFixed(digits);
/** A rate in ops/s, grouped, or `-` where there is none. */
export const rate = (/** @type {number | null | undefined} */ value) =>
  value === null || value === undefined ? '-' : ops(value);
/**
 * A share (a fraction) as a percentage: whole (`0.426` is `43%`), or to `digits` decimals
 * without trailing zeros (a target such as --precision 7%: `7%`, never `7.000000000000001%`).
 */
export const percentText = (/** @type {number} */ fraction, digits = 0) =>
  digits ? `${Number((fraction * 100).toFixed(digits))}%` : `${Math.round(fraction * 100)}%`;
/**
 * An estimate or an interval's bound: two decimals, but from 10,000 the whole number and from a
 * million three significant figures (`2.66e+9`), so a bound of an interval that three rounds
 * leave open (0.00-2664579178.68) reads as what it is and stays as narrow as a table's column.
 */
export const estimate = (/** @type {number} */ value) =>
  Math.abs(value) < 1e4 ? value.toFixed(2) : Math.abs(value) < 1e6 ? value.toFixed(0) : value.toExponential(2);
/** Seconds to two decimals, as the round and cell lengths are told: `0.10 s`. */
export const seconds = (/** @type {number} */ ns) => `${fixed(ns / 1e9)} s`;
/** @param {number} ns */
export function duration(ns) {
  if (ns >= 1e9) return `${fixed(ns / 1e9)} s`;
  if (ns >= 1e6) return `${fixed(ns / 1e6)} ms`;
  if (ns >= 1e3) return `${fixed(ns / 1e3, 1)} µs`;
  return `${Math.round(ns)} ns`;
}

/**
 * Items as a sentence lists them: "a", "a and b", "a, b and c" (or "or").
 * @param {string[]} items
 * @param {'and' | 'or'} [conjunction]
 */
export const listed = (items, conjunction = 'and') =>
  items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} ${conjunction} ${items[items.length - 1]}`;

/**
 * A count and its noun: "1 round", "3 rounds".
 * @param {number} n
 * @param {string} word  singular, made plural with an s
 */
export const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;

// The two ways a cell runs its K workers, and their order wherever both are shown: Worker
// threads in one process, then K child processes.
/** @typedef {'workers'|'procs'} Mode */

/** @type {['workers', 'procs']} */
export const MODES = ['workers', 'procs'];
