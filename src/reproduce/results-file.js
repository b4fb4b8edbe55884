import { appendFileSync, mkdirSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { usageError } from '../errors.js';

/**
 * The raw results of a reproduce run, one JSON record per line: a `run` header, then a
 * `calibration` per variant and a `cell` per finished cell, each appended (and flushed by the
 * kernel's page cache, which survives the process) the moment it exists. A kill loses at most
 * the cell that was running.
 */
export function createResultsFile(path, header) {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify({ type: 'run', ...header })}\n`, { flag: 'wx' });
}

export const appendRecord = (path, record) => appendFileSync(path, `${JSON.stringify(record)}\n`);

/**
 * Reads a results file for --resume. A last line cut off by a kill is dropped from the file, so
 * the records appended next start on a line of their own.
 * @returns {{ header: object, records: object[] }}
 */
export function readResultsFile(path) {
  let text;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw usageError(`--resume ${path}: ${error.code === 'ENOENT' ? 'no such file' : error.message}; pass the results file a reproduce run wrote`, error);
  }
  const end = text.lastIndexOf('\n') + 1;
  if (end < text.length) truncateSync(path, Buffer.byteLength(text.slice(0, end)));
  const records = [];
  for (const [index, line] of text.slice(0, end).split('\n').entries()) {
    if (!line) continue;
    try {
      records.push(JSON.parse(line));
    } catch {
      throw usageError(`--resume ${path}: line ${index + 1} is not JSON; the file is not one mmapbench reproduce wrote`);
    }
  }
  const [header] = records;
  if (header?.type !== 'run') throw usageError(`--resume ${path}: no run header on line 1; the file is not one mmapbench reproduce wrote`);
  return { header, records: records.slice(1) };
}
