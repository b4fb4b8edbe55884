import { test } from 'node:test';
import assert from 'node:assert/strict';
import { commandLine } from '../../src/words/command-line.js';
import { leftover } from '../../src/system/thp.js';

test('printed commands quote paths, so pasting them runs what they name', () => {
  assert.equal(
    commandLine(['mmapbench', 'reproduce', '--resume', '/tmp/my runs/results.jsonl']),
    "mmapbench reproduce --resume '/tmp/my runs/results.jsonl'",
  );
  assert.equal(
    commandLine(['mmapbench', 'reproduce', '--resume', "/tmp/it's; rm -rf ~"]),
    `mmapbench reproduce --resume "/tmp/it's; rm -rf ~"`,
  );
  assert.match(
    leftover('/tmp/a b/thp-restore.json', '/tmp/stand in').message,
    /run `mmapbench restore --thp-restore-file '\/tmp\/a b\/thp-restore.json' --thp-path '\/tmp\/stand in'` first$/,
  );
});
