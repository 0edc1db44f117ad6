import { describe, expect, it, vi } from 'vitest';
import type { DebuggerSession } from '../../source/engine/tools/debugger/session';
import { TuiController } from '../../source/ui/controller';
import { agentOn } from './agent-on';
import { bigClusterReport, frameShows, KEYS, until } from './helpers';
import { reviewOn } from './thm-review-on';

/** A debugger session that is open and answers nothing: enough for the takeover's keys. */
const idleDebugger = () =>
  ({
    running: true,
    currentMode: 'shell',
    root: '/w',
    idle: async () => undefined,
    transcript: [],
    interrupt: vi.fn(),
    run: vi.fn(async () => ''),
  }) as unknown as DebuggerSession;

describe('footer notices', () => {
  it('the takeover notice (Ctrl+C went to the program) clears when the debugger is handed back', async () => {
    const controller = new TuiController({ autoApproveCommands: true });
    const ui = await agentOn(controller);
    const session = idleDebugger();
    controller.attach({ debugger: session, selectedTests: [] });
    ui.stdin.write('t');
    const waiting = controller.beforeModelCall();
    await frameShows(ui.lastFrame, 'you have the debugger');
    ui.stdin.write(KEYS.ctrlC);
    await frameShows(ui.lastFrame, 'Ctrl+C went to the program being debugged');
    expect(session.interrupt).toHaveBeenCalled();
    ui.stdin.write(KEYS.escape); // an empty line: hands back
    await waiting;
    await until(
      () => !ui.lastFrame()!.includes('Ctrl+C went to the program'),
      () => ui.lastFrame()!,
    );
    expect(ui.lastFrame()).toContain('t take over'); // the key hints are back
    ui.unmount();
  });

  it("handed back while the developer's command still runs: the footer says the agent waits for it, Ctrl+C still interrupts it, and the agent goes on when it ends", async () => {
    const controller = new TuiController({ autoApproveCommands: true });
    const ui = await agentOn(controller);
    // A session whose command answers when the test says so (`answer`).
    let answer: ((output: string) => void) | undefined;
    const idleWaiters: (() => void)[] = [];
    const transcript: { who: string; input: string; output: string; mode: string }[] = [];
    const session = {
      running: true,
      currentMode: 'pdb',
      root: '/w',
      transcript,
      interrupt: vi.fn(),
      get busy() {
        return !!answer;
      },
      idle: () => new Promise<void>((resolve) => (answer ? idleWaiters.push(resolve) : resolve())),
      run: vi.fn(
        (input: string, who: string) =>
          new Promise<string>((resolve) => {
            answer = (output) => {
              answer = undefined;
              transcript.push({ who, input, output, mode: 'pdb' });
              resolve(output);
              for (const waiter of idleWaiters.splice(0)) waiter();
            };
          }),
      ),
    } as unknown as DebuggerSession;
    controller.attach({ debugger: session, selectedTests: [] });
    ui.stdin.write('t');
    let note: string | undefined | null = null;
    const waiting = controller.beforeModelCall().then((text) => (note = text));
    await frameShows(ui.lastFrame, 'you have the debugger');
    for (const char of 'c') ui.stdin.write(char);
    await frameShows(ui.lastFrame, '$ c');
    ui.stdin.write(KEYS.enter);
    await until(() => !!answer);
    ui.stdin.write(KEYS.escape); // an empty line: hands back, while `c` runs
    await frameShows(
      ui.lastFrame,
      'handed back: the agent gets the debugger when your command ends (Ctrl+C interrupts it)',
    );
    expect(ui.lastFrame()).not.toContain('you have the debugger');
    ui.stdin.write(KEYS.ctrlC);
    await frameShows(ui.lastFrame, 'the agent gets the session once it stops');
    expect(session.interrupt).toHaveBeenCalledTimes(1);
    expect(note).toBeNull(); // the agent still waits
    answer!('--KeyboardInterrupt--\n> /w/shop/cart.py(12)total()');
    await waiting;
    expect(note).toContain('(Pdb) c\n--KeyboardInterrupt--');
    expect(note).toContain('stopped at shop/cart.py:12 in total()');
    await until(
      () => !ui.lastFrame()!.includes('handed back'),
      () => ui.lastFrame()!,
    );
    expect(ui.lastFrame()).toContain('t take over');
    ui.unmount();
  });
});

describe('how to quit, where q does not', () => {
  it('the THM review names the way to quit in its footer; q and Esc (no filter to clear) say it', async () => {
    const report = bigClusterReport();
    const { ui } = reviewOn(report, 100, 35);
    await frameShows(ui.lastFrame, 'Selected 2 (T=2)');
    expect(ui.lastFrame()).toContain('Ctrl+C twice quits');
    ui.stdin.write('q');
    await frameShows(ui.lastFrame, 'Ctrl+C twice quits (the session is saved and can be resumed)');
    ui.stdin.write(KEYS.down); // any key takes the notice away
    await until(
      () => !ui.lastFrame()!.includes('can be resumed'),
      () => ui.lastFrame()!,
    );
    ui.stdin.write(KEYS.escape);
    await frameShows(ui.lastFrame, 'can be resumed');
    ui.unmount();
  });

  it('on the agent screen q, and Esc with no model call to cancel, say how to quit', async () => {
    const controller = new TuiController({ autoApproveCommands: true });
    const ui = await agentOn(controller);
    ui.stdin.write('q');
    await frameShows(ui.lastFrame, 'Ctrl+C twice quits (the session is saved and can be resumed)');
    controller.setNotice(undefined);
    await until(
      () => !ui.lastFrame()!.includes('can be resumed'),
      () => ui.lastFrame()!,
    );
    ui.stdin.write(KEYS.escape);
    await frameShows(ui.lastFrame, 'can be resumed');
    ui.unmount();
  });
});
