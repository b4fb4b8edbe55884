/**
 * The order things run in within round `round` (1-based): each round starts one step further
 * along (A B C, B C A, ...; with two, A B then B A), so slow drift on a noisy machine falls on
 * every setting and mode alike instead of always on the last one.
 * @template T
 * @param {T[]} items
 * @param {number} round
 * @returns {T[]}
 */
export const roundOrder = (items, round) => items.map((_, i) => items[(i + round - 1) % items.length]);
