import { test } from 'node:test';
import assert from 'node:assert/strict';
import { columnLines, fitContents, fitWidths, renderTerminal } from '../../src/view/table.js';

const widest = (text) => Math.max(...text.split('\n').map((line) => [...line].length));

test('a table as wide as its contents fits the width: the long text column gives, the numbers stay whole', () => {
  const head = ['writes by system call in flight (mean per cell)', 'workers', 'wait', 'procs', 'wait', 'w/p'];
  const rows = [
    ['mprotect', '1,592', '74.98 ms', '263', '11.07 ms', '6.04x'],
    ['none: kernel work', '1', '3.9 µs', '2', '7.9 µs', '0.55x'],
  ];
  const widths = fitContents([head, ...rows], 80);
  assert.ok(widths.reduce((a, b) => a + b, 0) + widths.length + 1 <= 80);
  // every number column keeps the width its longest line asks
  assert.deepEqual(widths.slice(1), [9, 10, 7, 10, 7]);
  const text = renderTerminal({ title: 't', tables: [{ head, rows }], notes: [] });
  assert.ok(widest(text) <= 80);
  assert.match(text, /│ +74\.98 ms │/);
  assert.match(text, /writes by system call in/, 'the head wraps at a word');
});

test('a table that fits is left as its contents ask', () => {
  const cells = [
    ['a', 'bb'],
    ['ccc', 'd'],
  ];
  assert.deepEqual(fitContents(cells, 80), [5, 4]);
});

test('no column goes below its longest word: past that the table stays wider than asked', () => {
  const cells = [
    ['verdict'.repeat(2), 'difference'],
    ['x', 'y'],
  ];
  assert.deepEqual(fitContents(cells, 10), [16, 12]);
});

test('given widths shrink in proportion, never below the longest word', () => {
  assert.deepEqual(fitWidths([40, 40], 43), [20, 20]);
  assert.deepEqual(fitWidths([10, 10], 80), [10, 10]);
  assert.deepEqual(fitWidths([40, 40], 23, [['a b', 'difference']]), [8, 12]);
});

test('a cell is measured in terminal columns: a wide character takes two, so a cell of them wraps whole, never cut', async () => {
  const { default: stringWidth } = await import('string-width');
  // a task named in CJK and a long path of wide characters, in a table narrower than they are
  const head = ['task', 'workers', 'procs'];
  const rows = [
    ['読み込み 読み込み 読み込み', '1,234', '5,678'],
    ['読読読読読 '.repeat(8).trim(), '1', '2'],
  ];
  const text = renderTerminal({ title: 't', tables: [{ head, rows }], notes: [] }, { width: 50 });
  const lines = text.split('\n').filter((line) => /[│┌└├]/.test(line));
  const columns = lines.map((line) => stringWidth(line));
  assert.ok(
    columns.every((width) => width === columns[0]),
    `${columns.join(' ')}\n${text}`,
  );
  assert.ok(lines.length > 4 && columns[0] <= 50, text);
  // wrapped by the columns it takes, the cell is whole: none of it cut off with an ellipsis
  assert.equal(text.match(/読読読読読/g)?.length, 8, text);
  assert.ok(!text.includes('…'), text);
});

test('a listing without borders: columns as wide as their widest cell or their least, the last wrapped under itself', () => {
  const rows = [
    ['heap', 'runs', 'the threads fault their buffers back in after each collection, the processes do not'],
    ['a-longer-name', 'skipped', 'short'],
  ];
  const lines = columnLines(rows, { min: [0, 8], width: 60 });
  assert.deepEqual(lines, [
    'heap           runs      the threads fault their buffers',
    '                         back in after each collection, the',
    '                         processes do not',
    'a-longer-name  skipped   short',
  ]);
  // right-aligned figures, and no wrapping without a width: the line ends where its text does
  assert.deepEqual(
    columnLines(
      [
        ['phase', 'workers'],
        ['set up', '1.5'],
      ],
      { align: ['left', 'right'] },
    ),
    ['phase   workers', 'set up      1.5'],
  );
});
