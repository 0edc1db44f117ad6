import { lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { SandboxSpec } from '../../source/engine/sandbox/create-sandbox';
import { hideTests } from '../../source/engine/task/hide-tests';
import { openTask, type OpenTask } from '../../source/engine/task/open-task';
import { callTool } from '../../source/engine/tools/call-tool';
import type { ToolContext } from '../../source/engine/tools/context';
import { openToolbox } from '../../source/engine/tools/toolbox';
import { OutsideWorkspaceError } from '../../source/engine/workspace/inside';
import { FIXTURES } from '../helpers/fixtures';
import { DOCKER, describeDocker } from '../helpers/sandboxes';
import { snapshot } from '../helpers/snapshot';

/**
 * With `--mount` the container writes the folder tenet works in on the host. Code there plants
 * links to host files (a path the container cannot see still makes a link the host follows);
 * tenet must neither write through them, nor read or list through them.
 */
describeDocker('--mount: links planted by the container never lead tenet out of the workspace', () => {
  const host = mkdtempSync(join(tmpdir(), 'tenet-host-'));
  const venv = join(host, 'venv');
  let task: OpenTask;
  let ctx: ToolContext;
  let dispose: () => void;
  let before: Record<string, string>;
  const shell = async (cmd: string) => (await callTool('run_debugger_cmd', { cmd }, ctx)).text;

  beforeAll(async () => {
    mkdirSync(join(venv, '__pycache__'), { recursive: true });
    writeFileSync(join(venv, 'site.pth'), 'import sys  # a file of the host\n');
    writeFileSync(join(venv, 'secrets.txt'), 'HOST-ONLY-CONTENT\n');
    writeFileSync(join(venv, '__pycache__', 'pricing.cpython-311.pyc'), 'host bytecode');
    before = snapshot(host);
    const spec = { ...(DOCKER as Extract<SandboxSpec, { kind: 'docker' }>), mount: true };
    task = await openTask({
      repo: join(FIXTURES, 'shop'),
      target: 'shop/pricing.py::apply_discount',
      blank: true,
      sandbox: spec,
      session: 'mount-links-test',
    });
    const toolbox = await openToolbox(task, {
      selectedTests: ['tests/test_pricing.py::test_apply_discount_basic'],
      testTimeoutSec: 10,
      indexCacheFile: null,
      debuggerTimeoutMs: 8000,
    });
    ctx = toolbox.ctx;
    dispose = toolbox.dispose;
  }, 90_000);
  afterAll(async () => {
    dispose?.();
    await task?.dispose();
    rmSync(host, { recursive: true, force: true });
  });

  it('submit_tests over a link to a host file replaces the link; the host file stays', async () => {
    expect(await shell(`ln -sf ${venv}/site.pth tests/test_by_agent.py && echo planted`)).toBe('planted\n[shell]');
    expect(await callTool('submit_tests', { code: 'def test_x():\n    assert True\n' }, ctx)).toMatchObject({
      ok: true,
    });
    expect(lstatSync(task.workspace.path('tests/test_by_agent.py')).isFile()).toBe(true);
    expect(snapshot(host)).toEqual(before);
  });

  it("a __pycache__ linked to a host folder keeps the host's files when the target is rewritten", async () => {
    expect(await shell(`rm -rf shop/__pycache__ && ln -s ${venv}/__pycache__ shop/__pycache__ && echo planted`)).toBe(
      'planted\n[shell]',
    );
    expect(
      await callTool('submit_implementation', { code: 'def apply_discount(price, percent):\n    return price\n' }, ctx),
    ).toMatchObject({ ok: true });
    expect(snapshot(host)).toEqual(before);
  });

  it('view_directory and read_file refuse a link to / and a link to a host file', async () => {
    expect(await shell(`ln -s / rootlink && ln -s ${venv}/secrets.txt notes.txt && echo planted`)).toBe(
      'planted\n[shell]',
    );
    const listing = await callTool('view_directory', { path: 'rootlink' }, ctx);
    expect(listing).toMatchObject({
      ok: false,
      text: 'rootlink leads outside the repository (a symbolic link): view_directory lists folders inside it only.',
    });
    expect((await callTool('view_directory', { path: '.' }, ctx)).text).toContain('rootlink@');
    const read = await callTool('read_file', { file_name: 'notes.txt' }, ctx);
    expect(read.ok).toBe(false);
    expect(read.text).not.toContain('HOST-ONLY-CONTENT');
  });

  it('hidden tests put back over a link are put back in the workspace, not through the link', async () => {
    const hidden = await hideTests(
      task.workspace,
      task.sandbox,
      ['tests/test_pricing.py::test_apply_discount_rounds'],
      [],
    );
    const original = readFileSync(join(FIXTURES, 'shop', 'tests', 'test_pricing.py'), 'utf8');
    expect(await shell(`ln -sf ${venv}/site.pth tests/test_pricing.py && echo planted`)).toBe('planted\n[shell]');
    await hidden.restore();
    expect(readFileSync(task.workspace.path('tests/test_pricing.py'), 'utf8')).toBe(original);
    expect(snapshot(host)).toEqual(before);
  });

  it('the target read back for the patch is only ever the file it was, never what a link leads to', async () => {
    expect(await shell(`ln -sf ${venv}/secrets.txt shop/pricing.py && echo planted`)).toBe('planted\n[shell]');
    await expect(task.sandbox.readFile('shop/pricing.py')).rejects.toThrow(OutsideWorkspaceError);
    expect(snapshot(host)).toEqual(before);
  });
});
