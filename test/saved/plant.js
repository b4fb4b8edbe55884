// Planting a wrong value in a saved document, and what reading it then comes to (the planted
// tests, here and in test/long/).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadSaved, renderSaved } from '../../src/commands/index.js';
import { MmapbenchError } from '../../src/errors.js';

const dir = mkdtempSync(join(tmpdir(), 'mmapbench-planted-'));

/** Every number in a document with its path, histograms' buckets aside (a bucket is a pair). */
export const numbers = (/** @type {unknown} */ value, /** @type {string[]} */ path = []) =>
  /** @type {Array<string[]>} */ (
    value && typeof value === 'object'
      ? Object.entries(value).flatMap(([key, inner]) => (/histogram/i.test(key) ? [] : numbers(inner, [...path, key])))
      : typeof value === 'number'
        ? [path]
        : []
  );

/**
 * What reading the document with `path` set to "x" comes to: null when it is refused by name or
 * reads clean; else what went wrong.
 * @param {string} file
 * @param {unknown} document
 * @param {string[]} path
 */
export function planted(file, document, path) {
  const copy = structuredClone(document);
  let at = /** @type {any} */ (copy);
  for (const step of path.slice(0, -1)) at = at[step];
  at[/** @type {string} */ (path.at(-1))] = 'x';
  const target = join(dir, file);
  writeFileSync(target, JSON.stringify(copy));
  try {
    const saved = loadSaved(target);
    const text = renderSaved(saved, 'terminal', { columns: 80, isTTY: false, write() {} }, { verbose: true });
    const garbage = text.split('\n').find((line) => /\bNaN\b|\bundefined\b|\bInfinity\b/.test(line));
    return garbage ? `printed: ${garbage.trim()}` : null;
  } catch (error) {
    if (error instanceof MmapbenchError && error.code === 'usage') {
      const field = path.map((step) => (/^\d+$/.test(step) ? `[${step}]` : step)).join('.');
      const named = error.message.replaceAll('.[', '[').includes(field.replaceAll('.[', '['));
      // or a field it lies under that the schema checks whole (an object refused as a whole)
      const refused = /: ([\w.[\]]+) (?:must|is) /.exec(error.message)?.[1].replaceAll('.[', '[');
      const under = refused !== undefined && field.replaceAll('.[', '[').startsWith(refused);
      return named || under ? null : `refused by another field: ${error.message}`;
    }
    return `threw ${/** @type {Error} */ (error).name}: ${/** @type {Error} */ (error).message}`;
  }
}
