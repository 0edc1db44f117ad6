import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { pythonHelpersDir } from '../../source/engine/assets';

// The launcher (source/python/_tenet_launch.py) kills everything below it when tenet stops it.
// At a run's end two stops come a millisecond apart (the debugger session's close, then the
// sandbox's disposal): the second must not interrupt the handling of the first, or the launcher
// ends before it kills what the command left, and setsid'd processes outlive the run.
describe("the launcher's stop", () => {
  it('is taken once: a second SIGTERM or SIGHUP while the first is handled changes nothing', () => {
    const script = [
      'import os, signal, sys',
      `sys.path.insert(0, ${JSON.stringify(pythonHelpersDir())})`,
      'import _tenet_launch as launch',
      'signal.signal(signal.SIGTERM, launch._stop)',
      'signal.signal(signal.SIGHUP, launch._stop)',
      'try:',
      '    os.kill(os.getpid(), signal.SIGTERM)',
      '    signal.pause()',
      'except launch.Stop:',
      '    os.kill(os.getpid(), signal.SIGTERM)',
      '    os.kill(os.getpid(), signal.SIGHUP)',
      '    print("handled once")',
    ].join('\n');
    const run = spawnSync('python3', ['-I', '-S', '-c', script], { encoding: 'utf8', timeout: 20_000 });
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe('handled once\n');
    expect(run.status).toBe(0);
  });
});
