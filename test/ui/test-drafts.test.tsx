import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { render } from 'ink-testing-library';
import { afterAll, describe, expect, it } from 'vitest';
import type { DeveloperTests, TestDesk } from '../../source/engine/run/test-desk';
import { TuiController } from '../../source/ui/controller';
import { LiveApp } from '../../source/ui/live-app';
import { start } from './agent-on';
import { frameShows, sampleReport, until } from './helpers';

// A test file the developer wrote that does not compile is put back as it was in the workspace
// (it must not break the repository's tests), but their text is not lost: the next `e` (or `n`)
// opens their editor on it again.

const scratch = mkdtempSync(join(tmpdir(), 'tenet-drafts-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const ORIGINAL = 'def test_direct():\n    assert f() == 1\n';
const BROKEN = `${ORIGINAL}\ndef test_dev_broken(:\n    pass\n`;
const FIXED = `${ORIGINAL}\ndef test_dev_fixed():\n    assert f() == 2\n`;

/** A desk as the engine's (workspace-test-desk.ts) behaves on a file: a file that does not compile is put back as it was. */
function workspaceDesk(root: string): TestDesk {
  const read = (path: string) => (existsSync(join(root, path)) ? readFileSync(join(root, path), 'utf8') : undefined);
  return {
    root,
    added: [],
    report: sampleReport(),
    placeFor: (name: string) => name,
    newFile: () => ({ path: 'test_by_developer.py', template: '# write here\n' }),
    async edit(path: string, edit: (file: string) => Promise<void>, template?: string) {
      const before = read(path);
      if (before === undefined && template !== undefined) writeFileSync(join(root, path), template);
      await edit(join(root, path));
      const after = read(path) ?? '';
      if (after === (before ?? template)) {
        if (before === undefined) rmSync(join(root, path), { force: true });
        return undefined;
      }
      const broken = after.includes('(:');
      if (broken) {
        if (before === undefined) rmSync(join(root, path), { force: true });
        else writeFileSync(join(root, path), before);
      }
      const outcome: DeveloperTests = {
        files: [{ path, content: after }],
        accepted: [],
        rejected: broken
          ? [
              {
                nodeid: path,
                reason: 'the file does not compile (line 4, column 21: invalid syntax); it was put back as it was',
              },
            ]
          : [{ nodeid: `${path}::test_dev_fixed`, reason: 'it passes on the stub' }],
        removed: [],
      };
      return outcome;
    },
  } as unknown as TestDesk;
}

describe('a test file that does not compile', () => {
  it('e opens the developer’s own text again (the workspace’s file stays as it was until it compiles); n as well for a new file', async () => {
    const root = mkdtempSync(join(scratch, 'w-'));
    writeFileSync(join(root, 't.py'), ORIGINAL);
    const opened: string[] = [];
    const writes = [BROKEN, undefined, FIXED, 'def test_new(:\n', undefined];
    const editor = {
      async editFile(file: string) {
        opened.push(readFileSync(file, 'utf8'));
        const text = writes.shift();
        if (text !== undefined) writeFileSync(file, text);
      },
    };
    const controller = new TuiController({ autoApproveCommands: true, editor });
    const ui = render(<LiveApp controller={controller} finished={false} onQuit={() => undefined} />);
    controller.dispatch(start);
    controller.dispatch({ type: 'thm.report', report: sampleReport() });
    const desk = workspaceDesk(root);
    let done = 0;
    const edit = desk.edit.bind(desk);
    desk.edit = async (...args) => {
      const outcome = await edit(...args);
      done++;
      return outcome;
    };
    // The n-th round of writing is over and its outcome on screen.
    const settled = (n: number) =>
      until(
        () =>
          done >= n &&
          !ui.lastFrame()!.includes('Your tests run on the stub') &&
          /✗|✎|Nothing changed/.test(ui.lastFrame()!),
        () => ui.lastFrame()!,
      );
    void controller.approveTests(sampleReport(), desk);
    await frameShows(ui.lastFrame, 'Selected 2 (T=2)');

    ui.stdin.write('e'); // the first cluster: t.py::test_direct
    await settled(1);
    expect(ui.lastFrame()).toContain('✗ kept out t.py: the file does not compile');
    expect(ui.lastFrame()).toContain('your text is kept: e on one of its tests opens it again, to fix it');
    expect(readFileSync(join(root, 't.py'), 'utf8')).toBe(ORIGINAL); // put back

    ui.stdin.write('e'); // their text again; they quit without a change: still broken, still kept
    await settled(2);
    expect(ui.lastFrame()).toContain('✗ kept out t.py: the file does not compile');
    expect(ui.lastFrame()).toContain('your text is kept');
    expect(opened[1]).toBe(BROKEN);
    expect(readFileSync(join(root, 't.py'), 'utf8')).toBe(ORIGINAL);

    ui.stdin.write('e'); // they fix it: it compiles, and stays
    await settled(3);
    expect(ui.lastFrame()).toContain('kept out t.py::test_dev_fixed: it passes on the stub');
    expect(opened[2]).toBe(BROKEN);
    expect(readFileSync(join(root, 't.py'), 'utf8')).toBe(FIXED);
    expect(ui.lastFrame()).not.toContain('your text is kept');

    ui.stdin.write('n'); // a new file that does not compile: n opens it again
    await settled(4);
    expect(ui.lastFrame()).toContain('✗ kept out test_by_developer.py: the file does not compile');
    expect(ui.lastFrame()).toContain('your text is kept: n opens it again');
    expect(existsSync(join(root, 'test_by_developer.py'))).toBe(false);
    ui.stdin.write('n');
    await settled(5);
    expect(ui.lastFrame()).toContain('your text is kept: n opens it again');
    expect(opened[4]).toBe('def test_new(:\n');
    ui.unmount();
  });

  it('an editor that fails over a kept text leaves the workspace’s file as it was', async () => {
    const root = mkdtempSync(join(scratch, 'w-'));
    writeFileSync(join(root, 't.py'), ORIGINAL);
    let calls = 0;
    const editor = {
      async editFile(file: string) {
        if (calls++ === 0) writeFileSync(file, BROKEN);
        else throw new Error('the editor "nvim" was not found; set $EDITOR');
      },
    };
    const controller = new TuiController({ autoApproveCommands: true, editor });
    const ui = render(<LiveApp controller={controller} finished={false} onQuit={() => undefined} />);
    controller.dispatch(start);
    controller.dispatch({ type: 'thm.report', report: sampleReport() });
    void controller.approveTests(sampleReport(), workspaceDesk(root));
    await frameShows(ui.lastFrame, 'Selected 2 (T=2)');
    ui.stdin.write('e');
    await frameShows(ui.lastFrame, 'your text is kept');
    ui.stdin.write('e');
    await frameShows(ui.lastFrame, 'Could not open your editor');
    expect(readFileSync(join(root, 't.py'), 'utf8')).toBe(ORIGINAL);
    ui.unmount();
  });
});
