/**
 * Items as a sentence lists them: "a", "a and b", "a, b and c" (or "or").
 * @param {string[]} items
 * @param {'and' | 'or'} [conjunction]
 */
export const listed = (items, conjunction = 'and') =>
  items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} ${conjunction} ${items[items.length - 1]}`;
