import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Sandbox, SandboxProcess } from '../../source/engine/sandbox/sandbox';
import { DebuggerSession } from '../../source/engine/tools/debugger/session';

// CI: in a Docker sandbox, `echo alive` answered "\nalive". Docker copies a process's stdout and
// stderr apart, so their order is not kept between them, and bash, line-buffered, wrote the newline
// that then began each end-of-command marker on its own: the one before the stderr marker came in
// before the command's output. Here a scripted shell delivers the two streams in such orders.

interface Sent {
  /** The command as typed (a pdb line as it is). */
  command: string;
  /** The lines that end a shell command, as bash prints them; absent for a pdb line. */
  outMarker?: string;
  errMarker?: string;
}

/** A sandbox whose one process is a shell the test answers by hand, a write at a time. */
function scriptedShell() {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const sent: Sent[] = [];
  let wake: (() => void) | undefined;
  stdin.setEncoding('utf8').on('data', (line: string) => {
    const shell = /^\{ ([\s\S]*)\n\} ; printf '(\w+):%s\\n' "\$\?"; printf '(\w+)\\n' >&2\n$/.exec(line);
    sent.push(
      shell ? { command: shell[1]!, outMarker: shell[2]!, errMarker: shell[3]! } : { command: line.replace(/\n$/, '') },
    );
    wake?.();
  });
  const process: SandboxProcess = {
    stdin,
    stdout,
    stderr,
    exited: new Promise(() => undefined),
    kill: () => undefined,
  };
  const sandbox = { workdir: '/w', spawn: () => process } as unknown as Sandbox;
  let read = 0;
  return {
    sandbox,
    /** The next command the session writes. */
    async next(): Promise<Sent> {
      while (sent.length <= read) await new Promise<void>((resolve) => (wake = resolve));
      return sent[read++]!;
    },
    out: (text: string) => stdout.write(text),
    err: (text: string) => stderr.write(text),
    /** The end of a shell command as bash writes it: the marker's line. */
    endOut: (sent: Sent, status = 0) => stdout.write(`${sent.outMarker}:${status}\n`),
    endErr: (sent: Sent) => stderr.write(`${sent.errMarker}\n`),
  };
}

/** Streams deliver on the next tick; fake timers stand in for the grace a late stderr marker gets. */
const settle = () => vi.advanceTimersByTimeAsync(0);

describe('the shell session reads stdout and stderr each on its own', () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] }));
  afterEach(() => vi.useRealTimers());

  async function started() {
    const shell = scriptedShell();
    const session = new DebuggerSession(shell.sandbox, { env: {}, timeoutMs: 60_000, maxOutput: 20_000 });
    const first = session.run('echo alive');
    const setup = await shell.next();
    expect(setup.command).toContain('trap');
    shell.endOut(setup);
    shell.endErr(setup);
    await settle();
    return { shell, session, first, command: await shell.next() };
  }

  it('keeps each line where it came, whichever stream it came on and however the markers interleave', async () => {
    const { shell, first, command } = await started();
    expect(command.command).toBe('echo alive');
    shell.out('alive\n');
    await settle();
    shell.err('warning\n');
    await settle();
    shell.endErr(command);
    await settle();
    shell.out('late');
    shell.endOut(command);
    await settle();
    expect(await first).toBe('alive\nwarning\nlate');
  });

  it("waits for the command's own stderr marker, not one a command before sent late", async () => {
    const { shell, session, first, command } = await started();
    shell.out('alive\n');
    shell.endOut(command);
    // Its stderr marker does not come within the grace: the command ends without it.
    await vi.advanceTimersByTimeAsync(2_000);
    expect(await first).toBe('alive');

    let answer: string | undefined;
    void session.run('ls missing').then((text) => (answer = text));
    const second = await shell.next();
    shell.endErr(command);
    shell.endOut(second, 2);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(answer).toBeUndefined();
    shell.err("ls: cannot access 'missing'\n");
    shell.endErr(second);
    await settle();
    expect(answer).toBe("ls: cannot access 'missing'");
  });

  it('ends pdb on the markers of the command that started it, without waiting out the grace', async () => {
    const { shell, session, first, command } = await started();
    shell.out('> prog.py(1)<module>()\n-> a = 1\n(Pdb) ');
    await settle();
    expect(await first).toBe('> prog.py(1)<module>()\n-> a = 1\n(Pdb) ');
    expect(session.currentMode).toBe('pdb');

    let answer: string | undefined;
    void session.run('q').then((text) => (answer = text));
    expect((await shell.next()).command).toBe('q');
    shell.endErr(command);
    shell.endOut(command);
    await settle();
    expect(answer).toBe('');
    expect(session.currentMode).toBe('shell');
  });
});
