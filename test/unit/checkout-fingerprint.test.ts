import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { changedPaths, fingerprintTree } from '../../source/engine/workspace/fingerprint';
import { evaluatePristine, lookAtCheckout } from '../../source/engine/eval/pristine-evaluation';
import type { OpenTask } from '../../source/engine/task/open-task';
import { LOCAL } from '../../source/engine/sandbox/create-sandbox';
import { LocalSandbox } from '../../source/engine/sandbox/local-sandbox';

const PYTHON = { executable: 'python3' } as OpenTask['python'];

const scratch = mkdtempSync(join(tmpdir(), 'tenet-fingerprint-'));
afterAll(() => {
  execFileSync('chmod', ['-R', 'u+rwx', scratch]);
  rmSync(scratch, { recursive: true, force: true });
});

function repo(name: string): string {
  const root = join(scratch, name);
  mkdirSync(join(root, 'pkg', '__pycache__'), { recursive: true });
  mkdirSync(join(root, '.git'), { recursive: true });
  writeFileSync(join(root, 'pkg', 'mod.py'), 'x = 1\n');
  writeFileSync(join(root, 'pkg', '__pycache__', 'mod.cpython-311.pyc'), 'bytecode');
  return root;
}

describe("the checkout's fingerprint (what the evaluation checks is as the agent found it)", () => {
  it('never waits on a FIFO, and sees one planted', () => {
    const root = repo('fifo');
    const before = fingerprintTree(root);
    execFileSync('mkfifo', [join(root, 'pkg', 'planted')]);
    const started = Date.now();
    expect(changedPaths(before, fingerprintTree(root))).toEqual(['pkg/planted']);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('sees a file rewritten with its size and modification time put back, and planted bytecode', () => {
    const root = repo('rewrite');
    const file = join(root, 'pkg', 'mod.py');
    const before = fingerprintTree(root);
    const { atime, mtime } = statSync(file);
    writeFileSync(file, 'x = 2\n');
    utimesSync(file, atime, mtime);
    writeFileSync(join(root, 'pkg', '__pycache__', 'mod.cpython-311.pyc'), 'planted!');
    expect(changedPaths(before, fingerprintTree(root))).toEqual(['pkg/__pycache__/mod.cpython-311.pyc', 'pkg/mod.py']);
  });

  it('leaves out what a workspace copy leaves out, and the folders it is told to skip', () => {
    const root = repo('skips');
    mkdirSync(join(root, 'sessions'));
    const skip = new Set([join(root, 'sessions')]);
    const before = fingerprintTree(root, skip);
    writeFileSync(join(root, '.git', 'HEAD'), 'ref');
    writeFileSync(join(root, 'sessions', 'events.jsonl'), '{}');
    expect(changedPaths(before, fingerprintTree(root, skip))).toEqual([]);
  });

  it('a checkout it cannot list is a problem said in words, not a check skipped', async () => {
    const root = repo('gone');
    rmSync(root, { recursive: true });
    expect(await lookAtCheckout({ repoDir: root, sandbox: new LocalSandbox(scratch), python: PYTHON })).toEqual({
      problem: expect.stringMatching(/^ENOENT/),
    });
  });

  it('a listing that failed as the agent started makes the verdict unverified, its reason said even when empty', async () => {
    const judged = await evaluatePristine({
      task: {} as OpenTask,
      moduleText: '',
      tests: [],
      testArgs: [],
      testTimeoutSec: 1,
      session: 's',
      checkoutAtStart: { problem: '' },
    });
    expect(judged).toEqual({
      unverified: "the checkout's files could not be listed as the agent started (no reason given)",
    });
  });

  it('a sitecustomize or a .pth planted where Python looks as it starts makes the verdict unverified (local sandbox)', async () => {
    const root = repo('startup');
    const onPath = join(scratch, 'on-path');
    mkdirSync(onPath);
    const sandbox = new LocalSandbox(root, { ...process.env, PYTHONPATH: onPath });
    try {
      const task = {
        repoDir: root,
        sandbox,
        python: PYTHON,
        spec: LOCAL,
        env: process.env,
        target: { file: 'pkg/mod.py' },
      } as unknown as OpenTask;
      const atStart = await lookAtCheckout(task);
      expect(atStart).toMatchObject({
        startup: { folders: expect.arrayContaining([onPath, expect.stringMatching(/site-packages$/)]) },
      });
      writeFileSync(join(onPath, 'sitecustomize.py'), 'import forged\n');
      const judged = await evaluatePristine({
        task,
        moduleText: 'x = 1\n',
        tests: [],
        testArgs: [],
        testTimeoutSec: 1,
        session: 's',
        checkoutAtStart: atStart,
      });
      expect(judged).toEqual({
        unverified: expect.stringMatching(
          /^what Python runs as it starts changed while the agent worked \(.*on-path\/sitecustomize\.py\)/,
        ),
      });
    } finally {
      await sandbox.dispose();
    }
  });
});
