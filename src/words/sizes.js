// How sizes are spelled: what a user types (64k, 8m, 64KiB) and what the output prints.

/** @type {Record<string, number>} */
const UNITS = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 };

/**
 * Parses `64k`, `8m`, `512`, `1.5m`, `64KiB` into bytes; null when it is not a size (or not a
 * whole number of bytes).
 * @param {unknown} text
 * @returns {number | null}
 */
export function parseSize(text) {
  const match = /^(\d+(?:\.\d+)?)\s*([kmg]?)(?:i?b)?$/i.exec(String(text).trim());
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
