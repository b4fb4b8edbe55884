import { accessSync, constants, mkdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { randomFillSync } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { usageError } from '../errors.js';

/** The investigation's four files (its /tmp/fs-contention-files). */
export const NAMED_FILES = { small: 128, med: 64 * 1024, large: 1024 * 1024, huge: 8 * 1024 * 1024 };

export const DEFAULT_FIXTURES_DIR = join(tmpdir(), 'mmapbench-fixtures');

const UNITS = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 };

/** Parses `64k`, `8m`, `512`, `1.5m`, `64KiB` into bytes; null when it is not a size. */
export function parseSize(text) {
  const match = /^(\d+(?:\.\d+)?)\s*([kmg]?)(?:i?b)?$/i.exec(String(text).trim());
  if (!match) return null;
  const bytes = Math.round(Number(match[1]) * UNITS[match[2].toLowerCase()]);
  return Number.isSafeInteger(bytes) ? bytes : null;
}

export function formatSize(bytes) {
  for (const [unit, size] of [['GiB', 1024 ** 3], ['MiB', 1024 ** 2], ['KiB', 1024]]) {
    if (bytes >= size && bytes % size === 0) return `${bytes / size} ${unit}`;
  }
  return bytes >= 1024 ? `${(bytes / 1024).toFixed(1)} KiB` : `${bytes} B`;
}

/** Writes a file of random bytes unless one of that size is already there. */
export function ensureFixture(path, size) {
  try {
    if (statSync(path).size === size) return false;
  } catch {}
  const data = Buffer.allocUnsafe(size);
  randomFillSync(data);
  // Write then rename, so a concurrent run never reads a half-written fixture.
  const partial = `${path}.${process.pid}.partial`;
  writeFileSync(partial, data);
  renameSync(partial, path);
  return true;
}

/**
 * Resolves `--file NAME|SIZE|PATH`: a name from the investigation, a size (a random file of
 * that size is created in the fixtures folder), or an existing readable file.
 * @returns {{ path: string, size: number, label: string }}
 */
export function resolveFile(spec, fixturesDir = DEFAULT_FIXTURES_DIR) {
  const named = NAMED_FILES[spec];
  const size = named ?? (/[/\\]/.test(spec) ? null : parseSize(spec));
  if (size !== null) {
    if (size < 1) throw usageError(`--file ${spec}: a size must be at least 1 byte`);
    const path = join(fixturesDir, named ? spec : `size-${size}`);
    mkdirSync(fixturesDir, { recursive: true });
    ensureFixture(path, size);
    return { path, size, label: named ? `${spec} (${formatSize(size)})` : formatSize(size) };
  }
  const path = resolve(spec);
  let stats;
  try {
    stats = statSync(path);
    accessSync(path, constants.R_OK);
  } catch (error) {
    const why = error.code === 'ENOENT' ? 'does not exist' : `is not readable (${error.code})`;
    throw usageError(`--file ${spec} ${why}; pass small, med, large, huge, a size such as 64k, or a readable file`, error);
  }
  if (!stats.isFile()) throw usageError(`--file ${spec} is not a regular file; pass a file, a name (med) or a size (64k)`);
  return { path, size: stats.size, label: spec };
}
