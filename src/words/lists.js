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
