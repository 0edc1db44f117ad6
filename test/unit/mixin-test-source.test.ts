import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { testsSection } from '../../source/engine/agent/task-context';
import type { ThmFailingTest } from '../../source/engine/protocol/thm-report';
import { testSourceAt } from '../../source/engine/python-source/test-source';

// Issue 33, item 6: a test a class inherits from a mixin (more-itertools' SeekableTest runs
// PeekableMixinTests.test_passthrough) was listed in the task by name, with no code.
const root = mkdtempSync(join(tmpdir(), 'tenet-mixin-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
mkdirSync(join(root, 'tests'));
writeFileSync(
  join(root, 'tests', 'test_more.py'),
  'from unittest import TestCase\n\nfrom tests.base import ImportedMixin\n\n\nclass PeekableMixinTests:\n    def test_passthrough(self):\n        self.assertEqual(list(self.cls([1])), [1])\n\n\nclass SeekableTest(PeekableMixinTests, TestCase):\n    cls = list\n\n\nclass OtherTest(ImportedMixin, TestCase):\n    pass\n',
);
writeFileSync(
  join(root, 'tests', 'base.py'),
  'class ImportedMixin:\n    def test_elsewhere(self):\n        assert seek(3) == 3\n',
);

const failing = (nodeid: string, chain: string[]): ThmFailingTest => ({
  nodeid,
  reached: true,
  chain,
  chainLines: [],
  depth: chain.length - 1,
  caller: chain.at(-2) ?? null,
  entryKind: 'test',
  failsThrough: null,
  outcome: 'failed',
  phase: 'call',
  message: 'NotImplementedError',
  longrepr: '',
  file: null,
  line: null,
  timedOut: false,
  crashed: false,
});

describe("a mixin's test", () => {
  it('is found in the mixin the class inherits it from, in the same file', async () => {
    const found = await testSourceAt(root, 'tests/test_more.py::SeekableTest::test_passthrough');
    expect(found).toEqual({
      text: '    def test_passthrough(self):\n        self.assertEqual(list(self.cls([1])), [1])',
      line: 7,
    });
  });

  it('defined in another file, is shown in the task from the function its chain entered by', async () => {
    const section = await testsSection(root, [
      failing('tests/test_more.py::OtherTest::test_elsewhere', [
        'tests/base.py::ImportedMixin.test_elsewhere',
        'pkg/seek.py::seek',
      ]),
    ]);
    expect(section).toContain('assert seek(3) == 3');
  });
});
