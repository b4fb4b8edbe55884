import { accessSync, constants } from 'node:fs';
import path from 'node:path';

/**
 * A command name searched on PATH, or a path checked as given; null when not executable.
 * @param {string} command
 */
export function which(command) {
  const candidates = command.includes('/')
    ? [command]
    : (process.env.PATH ?? '')
        .split(':')
        .filter(Boolean)
        .map((dir) => path.join(dir, command));
  return (
    candidates.find((file) => {
      try {
        accessSync(file, constants.X_OK);
        return true;
      } catch {
        return false;
      }
    }) ?? null
  );
}
