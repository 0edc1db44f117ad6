import Docker from 'dockerode';
import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openSandbox } from '../../source/engine/sandbox/create-sandbox';
import { CONTAINER_UIDS } from '../../source/engine/sandbox/docker/container-user';
import { DEFAULT_IMAGE, LABELS } from '../../source/engine/sandbox/docker/names';
import { NOT_FOUND } from '../../source/engine/sandbox/docker/exec-process';
import { openTask, type OpenTask } from '../../source/engine/task/open-task';
import { callTool } from '../../source/engine/tools/call-tool';
import type { ToolContext } from '../../source/engine/tools/context';
import { openToolbox } from '../../source/engine/tools/toolbox';
import { finished, runCli, startCli } from '../helpers/cli';
import { FIXTURES, treeHash } from '../helpers/fixtures';
import { DOCKER, describeDocker, removeTestImage } from '../helpers/sandboxes';
import type { SandboxSpec } from '../../source/engine/sandbox/create-sandbox';

const DOCKER_WITH = (image: string): SandboxSpec => ({ ...DOCKER, image }) as SandboxSpec;

const SHOP = join(FIXTURES, 'shop');
const TEST = 'tests/test_pricing.py::test_apply_discount_basic';
const docker = new Docker();
const containersOf = async (session: string) =>
  docker.listContainers({ all: true, filters: JSON.stringify({ label: [`${LABELS.session}=${session}`] }) });
/** Containers made by one tenet process (other test files run tenet in parallel). */
const containersOwnedBy = async (pid: number) =>
  docker.listContainers({ all: true, filters: JSON.stringify({ label: [`${LABELS.owner}=${hostname()}:${pid}`] }) });

/** Generated code that misbehaves: each is submitted as the target and run by run_tests. */
const HOSTILE = {
  loop: 'def apply_discount(price, percent):\n    while True:\n        pass\n',
  flood:
    'def apply_discount(price, percent):\n    import os\n    chunk = b"x" * 1_000_000\n    for _ in range(100):\n        os.write(1, chunk)\n    raise AssertionError("printed 100 MB")\n',
  // The bomb forks from a small interpreter of its own: pytest's process is large, and on a VM
  // with slow page-table copies 224 forks of it outlasted the 4 s test timeout. Submitted, it is
  // refused by tenet's judge (a submission starts no process); the agent's shell runs it.
  forks: [
    'import os, signal, time',
    'children = []',
    'try:',
    '    while True:',
    '        pid = os.fork()',
    '        if pid == 0:',
    '            os.close(1)',
    '            time.sleep(60)',
    '            os._exit(0)',
    '        children.append(pid)',
    'except OSError as error:',
    "    print(f'fork stopped after {len(children)} children: {error}')",
    // The limit is the container's: what comes next (the tests) needs its processes back.
    'for pid in children:',
    '    os.kill(pid, signal.SIGKILL)',
    '    os.waitpid(pid, 0)',
    '',
  ].join('\n'),
  network:
    'def apply_discount(price, percent):\n    import urllib.request\n    urllib.request.urlopen("http://1.1.1.1", timeout=3)\n',
  escape: 'def apply_discount(price, percent):\n    open("/etc/tenet-was-here", "w").write("x")\n',
  helpers:
    'def apply_discount(price, percent):\n    open("/opt/tenet/python/_tenet_thm/__init__.py", "a").write("# rewritten")\n',
  memory: 'def apply_discount(price, percent):\n    hog = bytearray(3 * 1024 ** 3)\n    return hog[0]\n',
};

describeDocker('generated code in a Docker container is contained and reported', () => {
  let task: OpenTask;
  let ctx: ToolContext;
  let dispose: () => void;
  let before: string;
  beforeAll(async () => {
    before = treeHash(SHOP);
    task = await openTask({
      repo: SHOP,
      target: 'shop/pricing.py::apply_discount',
      blank: true,
      sandbox: DOCKER,
      session: 'isolation-test',
    });
    // Long enough for the fork bomb to reach the process limit on a loaded machine (each fork of
    // even a small interpreter copies its page tables: 224 of them outlasted 4 s under a full suite).
    const toolbox = await openToolbox(task, {
      selectedTests: [TEST],
      testTimeoutSec: 15,
      indexCacheFile: null,
      debuggerTimeoutMs: 8000,
    });
    ctx = toolbox.ctx;
    dispose = toolbox.dispose;
  });
  afterAll(async () => {
    dispose?.();
    await task?.dispose();
  });

  const attempt = async (code: string) => {
    expect(await callTool('submit_implementation', { code }, ctx)).toMatchObject({ ok: true });
    const started = Date.now();
    const report = (await callTool('run_tests', {}, ctx)).text;
    return { report, seconds: (Date.now() - started) / 1000 };
  };
  /** What the agent's shell answers `cmd`. */
  const shell = async (cmd: string) => (await callTool('run_debugger_cmd', { cmd }, ctx)).text;
  const stillWorks = async () => expect(await shell('echo alive')).toBe('alive\n[shell]');

  it("runs as the container's own user, with no capabilities, in a container labelled with the session", async () => {
    const said = await shell(
      'id -u; grep CapEff /proc/self/status; python3 -c "import getpass; print(getpass.getuser())"',
    );
    expect(said).toMatch(/^\d+\nCapEff:\s+0+\ntenet\n\[shell\]$/);
    const uid = Number(said.split('\n')[0]);
    expect(uid).toBeGreaterThanOrEqual(CONTAINER_UIDS.first);
    expect(uid).toBeLessThanOrEqual(CONTAINER_UIDS.last);
    expect(await containersOf('isolation-test')).toHaveLength(1);
  });

  it('a loop that never ends is stopped at the test timeout', async () => {
    // A timeout of its own: the loop keeps a core busy until it is stopped, and the toolbox's 15 s
    // (for the fork bomb on a loaded machine) would be 15 CPU-seconds of the suite's.
    const { testTimeoutSec } = ctx;
    ctx.testTimeoutSec = 3;
    try {
      const { report, seconds } = await attempt(HOSTILE.loop);
      expect(report).toContain(`FAILED ${TEST} (timed out)`);
      expect(seconds).toBeLessThan(30);
    } finally {
      ctx.testTimeoutSec = testTimeoutSec;
    }
    await stillWorks();
  }, 60_000);

  it('the shell drives pdb in the container a line at a time, and its answers carry none of the end markers', async () => {
    // Docker delivers stdout and stderr apart: each answer is exactly what the program said, however they interleave.
    const started = await shell('python3 -m pytest -q tests/test_pricing.py --trace -p no:cacheprovider -k basic');
    expect(started).toMatch(/\(Pdb\) $/);
    expect(await shell('p 6 * 7')).toBe('42\n(Pdb) ');
    const after = await shell('q');
    expect(after).not.toContain('__tenet_done');
    expect(after.endsWith('\n[shell]')).toBe(true);
    for (let i = 0; i < 5; i++)
      expect(await shell(`echo out ${i}; echo err ${i} >&2`)).toMatch(
        new RegExp(`^(out ${i}\\nerr ${i}|err ${i}\\nout ${i})\\n\\[shell\\]$`),
      );
  });

  it('100 MB of output is cut, not carried', async () => {
    const { report } = await attempt(HOSTILE.flood);
    expect(report.length).toBeLessThan(13_000);
    expect(report).toContain('printed 100 MB');
    const printed = await shell('python3 -c "print(\'y\' * 100_000_000)"');
    expect(printed.length).toBeLessThan(13_000);
    await stillWorks();
  }, 60_000);

  it('a fork bomb hits the process limit', async () => {
    // Submitted, the bomb is refused before its first process: the judge's tripwire.
    const { report } = await attempt(
      `def apply_discount(price, percent):\n    import subprocess, sys\n    subprocess.run([sys.executable, "-c", ${JSON.stringify(HOSTILE.forks)}])\n`,
    );
    expect(report).toMatch(
      /^UNVERIFIED: the submission reached into the test harness: subprocess\.Popen at shop\/pricing\.py:\d+/,
    );
    // From the agent's shell it runs, and the container's process limit stops it.
    const bomb = Buffer.from(HOSTILE.forks).toString('base64');
    const said = await shell(`echo ${bomb} | base64 -d | python3 -`);
    const forked = Number(/fork stopped after (\d+) children/.exec(said)?.[1]);
    expect(forked, said).toBeGreaterThan(0);
    expect(forked).toBeLessThan(256);
    await stillWorks();
  }, 60_000);

  it('there is no network', async () => {
    const { report } = await attempt(HOSTILE.network);
    expect(report).toMatch(/Network is unreachable|Temporary failure|Name or service not known/);
  });

  it('nothing outside the workspace and /tmp can be written', async () => {
    const { report } = await attempt(HOSTILE.escape);
    expect(report).toContain('Read-only file system');
  });

  it("tenet's own helpers cannot be rewritten by the code under test (they report its outcomes)", async () => {
    // By the agent's shell: the container's file system refuses.
    const said = (
      await callTool(
        'run_debugger_cmd',
        {
          cmd: 'id -u; ls -l /opt/tenet/python/_tenet_thm/__init__.py; echo "# rewritten" >> /opt/tenet/python/_tenet_thm/__init__.py',
        },
        ctx,
      )
    ).text;
    expect(said).toContain('Permission denied');
    // By the submitted code: the judge refuses first, and says where.
    const { report } = await attempt(HOSTILE.helpers);
    expect(report).toMatch(
      /^UNVERIFIED: the submission reached into the test harness: open for writing at shop\/pricing\.py:\d+ \(\/opt\/tenet\/python\/_tenet_thm\/__init__\.py\)/,
    );
    // And THM's plugin still reports: the test ran and failed with the judge's refusal.
    expect(report).toMatch(/FAILED tests\/test_pricing\.py::/);
  });

  it('a memory hog is killed by the memory limit and reported as a crash', async () => {
    const { report } = await attempt(HOSTILE.memory);
    expect(report).toMatch(/crash|killed|MemoryError/i);
    await stillWorks();
  }, 60_000);

  it("leaves the user's checkout as it was", () => {
    expect(treeHash(SHOP)).toBe(before);
  });
});

describeDocker('container lifecycle through the CLI', () => {
  const thmArgs = [
    'thm',
    '--repo',
    SHOP,
    '--target',
    'shop/pricing.py::apply_discount',
    '--blank',
    '--sandbox',
    'docker',
    '--jobs',
    '1',
  ];

  it('a finished command removes its container', async () => {
    const child = startCli([...thmArgs, '--json']);
    let seen = 0;
    const watch = setInterval(
      () => void containersOwnedBy(child.pid!).then((c) => (seen = Math.max(seen, c.length))),
      100,
    );
    const result = await finished(child);
    clearInterval(watch);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).counts.failing).toBe(15);
    expect(seen).toBe(1);
    expect(await containersOwnedBy(child.pid!)).toHaveLength(0);
  });

  it('Ctrl-C removes the container; after a SIGKILL its watchdog does', async () => {
    let killed = 0;
    for (const signal of ['SIGINT', 'SIGKILL'] as const) {
      // The robust fixture has a test that sleeps ten minutes: THM is still running when the signal comes.
      const child = startCli([
        'thm',
        '--repo',
        join(FIXTURES, 'robust'),
        '--target',
        'robust/core.py::compute',
        '--sandbox',
        'docker',
        '--test-timeout',
        '120',
      ]);
      // Wait until its container exists and tests run in it.
      for (let i = 0; i < 200 && (await containersOwnedBy(child.pid!)).length === 0; i++)
        await new Promise((r) => setTimeout(r, 100));
      await new Promise((r) => setTimeout(r, 1500));
      child.kill(signal);
      const result = await finished(child);
      if (signal === 'SIGINT') {
        expect(result.code).toBe(130);
        // Removed by the exit hook; on a loaded engine that call may outlast its 10 s, and the
        // watchdog (told by the hook's end of its pipe) finishes the removal a moment later.
        for (let i = 0; i < 150 && (await containersOwnedBy(child.pid!)).length > 0; i++)
          await new Promise((r) => setTimeout(r, 100));
        expect(await containersOwnedBy(child.pid!)).toHaveLength(0);
      } else {
        killed = child.pid!;
      }
    }
    // Nothing of tenet ran to remove it: the watchdog that saw tenet's pipe close did.
    for (let i = 0; i < 150 && (await containersOwnedBy(killed)).length > 0; i++)
      await new Promise((r) => setTimeout(r, 100));
    expect(await containersOwnedBy(killed)).toHaveLength(0);
  }, 120_000);

  it('says how to start the daemon when none answers, and how to build a missing image', async () => {
    const down = await runCli([...thmArgs, '--docker-host', 'unix:///tmp/no-docker-here.sock']);
    expect(down.code).toBe(2);
    expect(down.stderr).toContain('Cannot reach the Docker daemon at unix:///tmp/no-docker-here.sock (ENOENT)');
    expect(down.stderr).toContain('fix: start it');
    const missing = await runCli([...thmArgs, '--image', 'tenet-no-such-image:1']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('The Docker image tenet-no-such-image:1 is not on the engine');
    expect(missing.stderr).toContain('tenet image build');
  });
});

describeDocker('exec statuses and images that cannot run tests', () => {
  /** The default image with something removed, committed as a new image: offline, a second or two. */
  const imageWithout = async (tag: string, remove: string) => {
    const container = await docker.createContainer({
      Image: DEFAULT_IMAGE,
      User: 'root',
      Entrypoint: ['sh', '-c', `rm -rf ${remove}`],
      NetworkDisabled: true,
    });
    await container.start();
    expect((await container.wait()).StatusCode).toBe(0);
    await container.commit({ repo: 'tenet-test-image', tag });
    await container.remove({ force: true });
    return `tenet-test-image:${tag}`;
  };
  let noPython: string;
  let noPytest: string;
  beforeAll(async () => {
    noPython = await imageWithout(`no-python-${process.pid}`, '/usr/bin/python3*');
    noPytest = await imageWithout(
      `no-pytest-${process.pid}`,
      '/usr/lib/python3/dist-packages/pytest /usr/lib/python3/dist-packages/_pytest',
    );
  }, 60_000);
  afterAll(async () => {
    for (const image of [noPython, noPytest]) if (image) await removeTestImage(docker, image);
  });

  it('passes through a 127 the command returns itself, and says "not found" only for a missing program', async () => {
    const sandbox = await openSandbox(DOCKER, SHOP, 'exec-status-test');
    try {
      const own = await sandbox.run(['sh', '-c', 'echo ran; exit 127']);
      expect(own).toMatchObject({ exitCode: 127, stdout: 'ran\n' });
      expect(own.error).toBeUndefined();
      const missing = await sandbox.run(['tenet-no-such-program', '--version']);
      expect(missing).toMatchObject({
        exitCode: 127,
        error: 'command not found in the container: tenet-no-such-program',
      });
      expect(missing.stderr).toBe(`${NOT_FOUND}tenet-no-such-program\n`);
      const path = await sandbox.run(['/nowhere/python3']);
      expect(path.error).toBe('command not found in the container: /nowhere/python3');
    } finally {
      await sandbox.dispose();
    }
  }, 60_000);

  it('an image without python3 is named as such, with how to get one, not as missing from the engine', async () => {
    const child = startCli([
      'thm',
      '--repo',
      SHOP,
      '--target',
      'shop/pricing.py::apply_discount',
      '--blank',
      '--sandbox',
      'docker',
      '--jobs',
      '1',
      '--image',
      noPython,
    ]);
    const result = await finished(child);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`The Docker image ${noPython} has no python3`);
    expect(result.stderr).not.toContain('is not on the engine');
    expect(result.stderr).toContain('tenet image build');
    expect(result.stderr).toContain('an image that has python3 and pytest');
    expect(await containersOwnedBy(child.pid!)).toHaveLength(0);
  }, 60_000);

  it('an image whose python3 has no pytest says so, and leaves no container', async () => {
    await expect(openSandbox(DOCKER_WITH(noPytest), SHOP, 'no-pytest-test')).rejects.toThrow(
      `The Docker image ${noPytest} has no pytest for its python3`,
    );
    expect(await containersOf('no-pytest-test')).toHaveLength(0);
  }, 60_000);
});

describeDocker('--mount: the workspace bind-mounted instead of copied in', () => {
  it("runs as the container's own user, not root, even when tenet is root, and the tests read and write the mounted workspace", async () => {
    const before = treeHash(SHOP);
    const task = await openTask({
      repo: SHOP,
      target: 'shop/pricing.py::apply_discount',
      blank: true,
      sandbox: { ...(DOCKER as Extract<SandboxSpec, { kind: 'docker' }>), mount: true },
      session: 'mount-test',
    });
    const toolbox = await openToolbox(task, {
      selectedTests: [TEST],
      testTimeoutSec: 10,
      indexCacheFile: null,
      debuggerTimeoutMs: 8000,
    });
    try {
      const uid = process.getuid?.() ?? 0;
      const [said, ok] = (
        await callTool('run_debugger_cmd', { cmd: 'id -u; touch written-inside && echo ok' }, toolbox.ctx)
      ).text.split('\n');
      if (uid === 0) expect(Number(said)).toBeGreaterThanOrEqual(CONTAINER_UIDS.first);
      else expect(Number(said)).toBe(uid);
      expect(ok).toBe('ok');
      // Written in the container, seen on the host: the same folder, not a copy.
      expect(existsSync(task.workspace.path('written-inside'))).toBe(true);
      const right =
        'def apply_discount(price, percent):\n    if percent < 0 or percent > 100:\n        raise ValueError("percent must be within 0..100")\n    return round(price * (100 - percent) / 100, 2)\n';
      expect(await callTool('submit_implementation', { code: right }, toolbox.ctx)).toMatchObject({ ok: true });
      expect((await callTool('run_tests', {}, toolbox.ctx)).text).toContain('1 passed');
    } finally {
      toolbox.dispose();
      await task.dispose();
    }
    expect(treeHash(SHOP)).toBe(before);
    expect(await containersOf('mount-test')).toHaveLength(0);
  }, 90_000);
});

describeDocker('two containers at once', () => {
  it("a fork bomb in one leaves the other's tests free to fork: each container runs as a user of its own", async () => {
    const [bombed, other] = await Promise.all([
      openSandbox(DOCKER, SHOP, 'bomb-test'),
      openSandbox(DOCKER, SHOP, 'neighbour-test'),
    ]);
    try {
      // Forks until the process limit says no, then holds every process it made.
      const bomb = bombed.spawn([
        'python3',
        '-c',
        'import os, time\nn = 0\ntry:\n    while True:\n        if os.fork() == 0:\n            time.sleep(60)\n            os._exit(0)\n        n += 1\nexcept OSError:\n    print("full after", n, "as", os.getuid(), flush=True)\n    time.sleep(60)\n',
      ]);
      const full = await new Promise<string>((resolve, reject) => {
        let out = '';
        bomb.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          if (out.includes('\n')) resolve(out);
        });
        void bomb.exited.then(() => reject(new Error(`the bomb ended before it was full: ${out}`)));
      });
      expect(full).toMatch(/^full after \d+ as \d+/);
      // With one user for every container, its process count was used up here too: "Cannot fork".
      const forked = await other.run(
        [
          'python3',
          '-c',
          'import os\npids = []\nfor _ in range(5):\n    pid = os.fork()\n    if pid == 0:\n        os._exit(0)\n    pids.append(pid)\nfor pid in pids:\n    os.waitpid(pid, 0)\nprint("forked 5")',
        ],
        { timeoutMs: 30_000 },
      );
      expect(forked.stderr).toBe('');
      expect(forked.stdout).toBe('forked 5\n');
      // (Asked of the bomb itself: its container has no process left for another exec.)
      const bombUid = Number(/as (\d+)/.exec(full)?.[1]);
      expect(bombUid).toBeGreaterThanOrEqual(CONTAINER_UIDS.first);
      expect(Number((await other.run(['id', '-u'])).stdout)).not.toBe(bombUid);
      bomb.kill();
    } finally {
      await Promise.all([bombed.dispose(), other.dispose()]);
    }
  }, 90_000);
});

describeDocker('files copied into the container', () => {
  it('several go in together, and a module rewritten at the same size within the same second is what the next import runs', async () => {
    const repo = mkdtempSync(join(tmpdir(), 'tenet-sync-'));
    mkdirSync(join(repo, 'pkg'));
    writeFileSync(join(repo, 'pkg', '__init__.py'), '');
    const version = (n: number) => `VERSION = ${n}\n`;
    // Both versions carry one modification time, whole seconds: Python's bytecode check cannot tell them apart.
    const at = new Date(Math.floor(Date.now() / 1000) * 1000);
    const put = (n: number) => {
      writeFileSync(join(repo, 'pkg', 'mod.py'), version(n));
      writeFileSync(join(repo, 'pkg', 'other.py'), version(n));
      utimesSync(join(repo, 'pkg', 'mod.py'), at, at);
    };
    put(1);
    const sandbox = await openSandbox(DOCKER, repo, 'sync-test');
    try {
      const read = async () =>
        (await sandbox.run(['python3', '-c', 'import pkg.mod, pkg.other; print(pkg.mod.VERSION, pkg.other.VERSION)']))
          .stdout;
      expect(await read()).toBe('1 1\n');
      put(2);
      await sandbox.syncFiles(['pkg/mod.py', 'pkg/other.py']);
      expect(await read()).toBe('2 2\n');
    } finally {
      await sandbox.dispose();
      rmSync(repo, { recursive: true, force: true });
    }
  }, 60_000);
});
