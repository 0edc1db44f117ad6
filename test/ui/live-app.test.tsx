import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { render } from 'ink-testing-library';
import { afterAll, describe, expect, it } from 'vitest';
import type { RunResult } from '../../source/engine/events';
import { LocalSandbox } from '../../source/engine/sandbox/local-sandbox';
import { DebuggerSession } from '../../source/engine/tools/debugger/session';
import { TuiController } from '../../source/ui/controller';
import { LiveApp } from '../../source/ui/live-app';
import { agentOn, start } from './agent-on';
import { frameShows, KEYS, typeKeys, until } from './helpers';

const scratch = mkdtempSync(join(tmpdir(), 'tenet-ui-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function result(pass: boolean): RunResult {
  return {
    type: 'result',
    sessionId: 's1',
    target: 'm.py::f',
    strategy: 'tenet',
    pass,
    stopReason: pass ? 'passed' : 'budget',
    selectedTests: { passed: 2, total: 2 },
    hiddenTests: { passed: 1, total: 2 },
    tests: { 't.py::test_direct': 'passed', 't.py::test_b': 'failed' },
    usage: { inputTokens: 1200, outputTokens: 80, modelCalls: 3, toolCalls: 4 },
    rounds: { pregen: 2, rrwAttempts: 5, total: 3 },
    costUsd: 0.0123,
    costOfPass: pass ? 0.0123 : null,
    wallMs: 4200,
    patch: '--- a/m.py\n+++ b/m.py\n@@ -1,2 +1,2 @@\n def f():\n-    pass\n+    return 1\n',
    model: 'm',
  };
}

describe('the live app', () => {
  it('streams model text, shows tool calls with collapsed results, the test grid and the running cost', async () => {
    const controller = new TuiController({ autoApproveCommands: false });
    const ui = await agentOn(controller);
    controller.dispatch({ type: 'model.delta', text: 'Looking at the ' });
    controller.dispatch({ type: 'model.delta', text: 'callers.' });
    await frameShows(ui.lastFrame, 'Looking at the callers.');
    expect(ui.lastFrame()).toContain('Looking at the callers.');
    expect(ui.lastFrame()).toContain('pre-generation · round 1/15');
    controller.dispatch({
      type: 'model.response',
      content: 'Looking at the callers.',
      toolCalls: [{ id: 'c1', name: 'search_method', arguments: '{"method_name":"g"}' }],
      usage: { inputTokens: 1000, outputTokens: 50, cacheReadTokens: 800, cacheWriteTokens: 0 },
      costUsd: 0.01,
      cacheSavedUsd: 0.0216,
      durationMs: 5,
      model: 'm',
      stopReason: 'tool_calls',
    });
    controller.dispatch({ type: 'tool.call', id: 'c1', name: 'search_method', arguments: '{"method_name":"g"}' });
    controller.dispatch({
      type: 'tool.result',
      id: 'c1',
      name: 'search_method',
      ok: true,
      text: Array.from({ length: 12 }, (_, i) => `line ${i + 1}`).join('\n'),
      durationMs: 3,
    });
    controller.dispatch({
      type: 'tests.run',
      purpose: 'validate',
      report: '',
      outcomes: { 't.py::test_direct': 'passed', 't.py::test_a': 'failed' },
      passed: 1,
      total: 2,
    });
    await frameShows(ui.lastFrame, '→ search_method method_name=g');
    const frame = ui.lastFrame()!;
    expect(frame).toContain('→ search_method method_name=g');
    expect(frame).toContain('✓ t.py::test_direct');
    expect(frame).toContain('✗ t.py::test_a failed');
    // The footer: tokens with the share read from the prompt cache, calls, the cost and what the cache saved.
    expect(frame).toContain(
      '1,000 tokens in (80% from cache) / 50 out · 1 model call · 1 tool call · $0.0100 (caching saved',
    );
    ui.unmount();
  });

  it('asks before a shell command: y once, a always, e with a reason, Esc denies, x stops after asking', async () => {
    const controller = new TuiController({ autoApproveCommands: false });
    const ui = await agentOn(controller);
    const once = controller.approveCommand('ls -la');
    await frameShows(ui.lastFrame, 'The agent wants to run a shell command:');
    expect(ui.lastFrame()).toContain('$ ls -la');
    // The question has the keys: the footer offers none of the screen's, which do nothing until it is answered.
    expect(ui.lastFrame()).not.toMatch(/earlier output|cancel call|take over/);
    expect(ui.lastFrame()!.trimEnd().split('\n').at(-1)).toMatch(/Ctrl\+C twice quits/);
    ui.stdin.write('y');
    expect(await once).toEqual({ run: true });
    const denied = controller.approveCommand('rm -rf build');
    await frameShows(ui.lastFrame, '$ rm -rf build');
    ui.stdin.write('e');
    await frameShows(ui.lastFrame, 'Why not?');
    for (const char of 'not here') ui.stdin.write(char);
    await frameShows(ui.lastFrame, 'Why not? not here');
    ui.stdin.write(KEYS.enter);
    expect(await denied).toEqual({ run: false, reason: 'not here' });
    const escaped = controller.approveCommand('make');
    await frameShows(ui.lastFrame, '$ make');
    ui.stdin.write(KEYS.escape);
    expect(await escaped).toEqual({ run: false, reason: '' });
    const stopped = controller.approveCommand('make');
    await frameShows(ui.lastFrame, 'x stop the agent');
    ui.stdin.write('x');
    await frameShows(ui.lastFrame, 'Stop the agent and evaluate what it has? y/N');
    ui.stdin.write('y');
    expect(await stopped).toEqual({ stop: true });
    const always = controller.approveCommand('pwd');
    await frameShows(ui.lastFrame, '$ pwd');
    ui.stdin.write('a');
    expect(await always).toMatchObject({ run: true });
    expect(await controller.approveCommand('whoami')).toMatchObject({ run: true }); // no prompt any more
    ui.unmount();
  });

  it("a denied command's 'e' and its reason typed fast come as one chunk: the field opens with the reason in it", async () => {
    const controller = new TuiController({ autoApproveCommands: false });
    const ui = await agentOn(controller);
    const denied = controller.approveCommand('rm -rf build');
    await frameShows(ui.lastFrame, '$ rm -rf build');
    ui.stdin.write('enot here');
    await frameShows(ui.lastFrame, 'Why not? not here');
    ui.stdin.write(KEYS.enter);
    expect(await denied).toEqual({ run: false, reason: 'not here' });
    ui.unmount();
  });

  it("keys typed after a denied command's 'e', before the reason field is drawn, are the reason: a `y` in it does not run the command", async () => {
    const controller = new TuiController({ autoApproveCommands: false });
    const ui = await agentOn(controller);
    const denied = controller.approveCommand('rm -rf build');
    await frameShows(ui.lastFrame, '$ rm -rf build');
    // One chunk per key, all before React draws again: the field opens but does not listen yet.
    for (const char of 'eyes, not here') ui.stdin.write(char);
    await frameShows(ui.lastFrame, 'Why not? yes, not here');
    ui.stdin.write(KEYS.enter);
    expect(await denied).toEqual({ run: false, reason: 'yes, not here' });
    ui.unmount();
  });

  it('Esc cancels the model call; Enter makes it again', async () => {
    const controller = new TuiController({ autoApproveCommands: true });
    const ui = await agentOn(controller);
    const signal = controller.callSignal();
    ui.stdin.write(KEYS.escape);
    await until(() => signal.aborted);
    expect(signal.aborted).toBe(true);
    const choice = controller.afterCancelledCall();
    await frameShows(ui.lastFrame, 'The model call was cancelled.');
    ui.stdin.write(KEYS.enter);
    expect(await choice).toBe('retry');
    ui.unmount();
  });

  it('Esc then Enter: the call made again starts fresh, its stream not glued onto the cancelled one, its clock from zero', async () => {
    const controller = new TuiController({ autoApproveCommands: true });
    const ui = await agentOn(controller);
    const signal = controller.callSignal();
    // The cancelled call had streamed some text and half a submission.
    controller.dispatch({ type: 'model.delta', text: 'submit' });
    controller.dispatch({
      type: 'model.tool-delta',
      index: 0,
      name: 'submit_implementation',
      arguments: '{"code": "def f(x):\\n    return old_',
    });
    await frameShows(ui.lastFrame, 'return old_');
    ui.stdin.write(KEYS.escape);
    await until(() => signal.aborted);
    expect(signal.aborted).toBe(true);
    // What the engine emits for a call cancelled mid-answer (conversation.ts), then asks.
    controller.dispatch({
      type: 'model.unanswered',
      reason: 'cancelled',
      usage: { inputTokens: 100, outputTokens: 10 },
      costUsd: 0.001,
      durationMs: 6000,
    });
    controller.dispatch({ type: 'warning', message: 'The model call was cancelled.' });
    const choice = controller.afterCancelledCall();
    await frameShows(ui.lastFrame, 'Enter: make it again');
    const retried = Date.now();
    ui.stdin.write(KEYS.enter);
    expect(await choice).toBe('retry');
    // The call made again streams from its start (no model.request: it is the same round).
    controller.callSignal();
    controller.dispatch({ type: 'model.delta', text: 'submit' });
    controller.dispatch({
      type: 'model.tool-delta',
      index: 0,
      name: 'submit_implementation',
      arguments: '{"code": "def f(x):\\n    return x + 1\\n"}',
    });
    await frameShows(ui.lastFrame, 'return x + 1');
    const frame = ui.lastFrame()!;
    expect(frame).not.toContain('submitsubmit');
    expect(frame).not.toContain('old_');
    const call = controller.getState().view.agent.call!;
    expect(call.since).toBeGreaterThanOrEqual(retried);
    expect(call.chars).toBe('submit'.length + '{"code": "def f(x):\\n    return x + 1\\n"}'.length);
    expect(frame).toMatch(/model · 0 s/);
    ui.unmount();
  });

  it('takes over the debugger: the agent waits, the developer types into the live session, hands it back', async () => {
    const sandbox = new LocalSandbox(scratch);
    const session = new DebuggerSession(sandbox, { env: {}, timeoutMs: 10_000, maxOutput: 10_000 });
    const controller = new TuiController({ autoApproveCommands: true });
    const ui = await agentOn(controller);
    const forward = session.onEvent((event) => {
      if (event.type === 'input')
        controller.dispatch({ type: 'debugger.input', who: event.who, input: event.input, mode: event.mode });
      else if (event.type === 'output') controller.dispatch({ type: 'debugger.output', chunk: event.chunk });
    });
    try {
      await session.run('echo agent was here', 'agent');
      controller.attach({ debugger: session, selectedTests: [] });
      ui.stdin.write('t');
      await frameShows(ui.lastFrame, "takeover: waiting for the agent's current step");
      // The agent reaches its next model call: it waits there for the hand-back.
      const waiting = controller.beforeModelCall();
      await frameShows(ui.lastFrame, 'you have the debugger');
      await typeKeys(ui, 'echo $((6*7))');
      ui.stdin.write(KEYS.enter);
      await frameShows(ui.lastFrame, '42');
      ui.stdin.write(KEYS.escape);
      const note = await waiting;
      expect(note).toContain('The developer took over the debugger session');
      expect(note).toContain('$ echo $((6*7))\n42');
      expect(session.transcript.map((e) => [e.who, e.input])).toEqual([
        ['agent', 'echo agent was here'],
        ['human', 'echo $((6*7))'],
      ]);
      expect(controller.getState().takeover).toBe('off');
    } finally {
      forward();
      session.close();
      ui.unmount();
      await sandbox.dispose();
    }
  });

  it('the result screen: diff, tests, cost of a pass; a asks before it applies the patch, n and Esc keep it out', async () => {
    const controller = new TuiController({ autoApproveCommands: true });
    const ui = await agentOn(controller);
    let answered = false;
    const decision = controller.acceptPatch(result(true)).then((answer) => ((answered = true), answer));
    await frameShows(ui.lastFrame, 'a apply the patch');
    const frame = ui.lastFrame()!;
    expect(frame).toContain('PASS: 2/2 selected passed, 1/2 hidden passed');
    expect(frame).toContain('cost of a pass $0.0123');
    expect(frame).toContain('+    return 1');
    expect(frame).toContain('✗ t.py::test_b failed');
    ui.stdin.write('a');
    await frameShows(ui.lastFrame, 'Apply the patch (+1 −1) to m.py? y/N');
    // Where it goes: the checkout's folder (the session's repository), above the question.
    expect(ui.lastFrame()).toMatch(/In the checkout at \/r:\s*│\n│ Apply the patch \(\+1 −1\) to m\.py\? y\/N/);
    ui.stdin.write('n');
    await frameShows(ui.lastFrame, 'a apply the patch');
    ui.stdin.write('a');
    await frameShows(ui.lastFrame, 'Apply the patch (+1 −1)');
    ui.stdin.write(KEYS.escape);
    await frameShows(ui.lastFrame, 'a apply the patch');
    ui.stdin.write('a');
    await frameShows(ui.lastFrame, 'Apply the patch (+1 −1)');
    ui.stdin.write(KEYS.enter); // Enter is no: the default of the question
    await frameShows(ui.lastFrame, 'a apply the patch');
    expect(answered).toBe(false);
    expect(ui.lastFrame()).toContain('+    return 1');
    ui.stdin.write('a');
    await frameShows(ui.lastFrame, 'Apply the patch (+1 −1)');
    ui.stdin.write('y');
    expect(await decision).toBe('accept');
    ui.unmount();
  });

  it('a run with no patch (every submission rejected) keeps its result screen, with the keys it names, until q', async () => {
    const controller = new TuiController({ autoApproveCommands: true });
    const element = (finished: boolean) => (
      <LiveApp controller={controller} finished={finished} onQuit={() => undefined} />
    );
    const ui = await agentOn(controller);
    for (let i = 0; i < 2; i++)
      controller.dispatch({ type: 'submission', code: 'def f(:', ok: false, message: 'SyntaxError' });
    const none: RunResult = { ...result(false), stopReason: 'no-implementation', patch: '' };
    controller.dispatch({
      type: 'tests.run',
      purpose: 'evaluate',
      outcomes: none.tests,
      passed: 1,
      total: 2,
      report: '',
    });
    controller.dispatch(none);
    // The engine is done: run-tui renders the app finished.
    ui.rerender(element(true));
    await frameShows(ui.lastFrame, 'FAIL: 2/2 selected passed, 1/2 hidden passed (no submission was accepted)');
    expect(ui.lastFrame()).toContain('t lists them all · Enter: how they failed');
    expect(ui.lastFrame()).toMatch(/q quit/);
    expect(ui.lastFrame()).not.toMatch(/a apply|r reject|s save/);
    // The keys it names work: the app did not exit.
    ui.stdin.write('t');
    await frameShows(ui.lastFrame, 't: the diff');
    ui.stdin.write('t');
    await frameShows(ui.lastFrame, 't lists them all');
    // q quits; the app is gone: `t` no longer turns to the list of tests.
    ui.stdin.write('q');
    // Ink has let go of the keyboard: the app has exited.
    await until(() => ui.stdin.listenerCount('readable') === 0);
    ui.stdin.write('t');
    expect(ui.frames.join('\n').split('t lists them all').at(-1)).not.toContain('t: the diff');
    ui.unmount();
  });

  it('the verdict of a run in which nothing was submitted says so', async () => {
    const controller = new TuiController({ autoApproveCommands: true });
    const ui = await agentOn(controller);
    controller.dispatch({ ...result(false), stopReason: 'no-implementation', patch: '' });
    await frameShows(ui.lastFrame, 'FAIL: 2/2 selected passed, 1/2 hidden passed (nothing was submitted)');
    ui.unmount();
  });

  it('the verdict of a run stopped before anything was submitted says so (x at the first model call)', async () => {
    const controller = new TuiController({ autoApproveCommands: true });
    const ui = await agentOn(controller);
    controller.dispatch({ ...result(false), stopReason: 'cancelled', patch: '' });
    await frameShows(
      ui.lastFrame,
      'FAIL: 2/2 selected passed, 1/2 hidden passed (stopped by you before anything was submitted)',
    );
    ui.unmount();
  });

  it('a failed run asks twice before its patch is applied', async () => {
    const controller = new TuiController({ autoApproveCommands: true });
    const ui = await agentOn(controller);
    let answered = false;
    const decision = controller.acceptPatch(result(false)).then((answer) => ((answered = true), answer));
    await frameShows(
      ui.lastFrame,
      'FAIL: 2/2 selected passed, 1/2 hidden passed (the 5 refinement attempts were used up)',
    );
    ui.stdin.write('a');
    await frameShows(ui.lastFrame, 'Apply a patch that failed? y/N');
    expect(ui.lastFrame()).toContain(
      'This patch did not pass the tests. Writing it into /r/m.py puts failing code in your checkout.',
    );
    ui.stdin.write('y');
    await frameShows(ui.lastFrame, 'Apply the patch (+1 −1) to m.py? y/N');
    expect(answered).toBe(false);
    expect(ui.lastFrame()).toContain('FAIL: 2/2 selected passed, 1/2 hidden passed');
    ui.stdin.write('y');
    expect(await decision).toBe('accept');
    ui.unmount();
  });

  it('s saves the patch to tenet-<session>.patch (and stays), q quits keeping it in the session', async () => {
    const controller = new TuiController({ autoApproveCommands: true });
    const written: string[] = [];
    controller.savePatch = (file) => void written.push(file);
    const ui = await agentOn(controller);
    const saved = controller.acceptPatch(result(false));
    await frameShows(ui.lastFrame, 'a apply the patch');
    ui.stdin.write('s');
    await frameShows(ui.lastFrame, `patch saved to ${resolve('tenet-s1.patch')}`);
    expect(written).toEqual([resolve('tenet-s1.patch')]);
    ui.stdin.write('q');
    expect(await saved).toEqual({ saveTo: resolve('tenet-s1.patch') });
    ui.unmount();
    const other = new TuiController({ autoApproveCommands: true });
    const second = await agentOn(other);
    const kept = other.acceptPatch(result(true));
    await frameShows(second.lastFrame, 'a apply the patch');
    second.stdin.write('q');
    expect(await kept).toBe('save');
    second.unmount();
  });

  it('o opens any earlier output in full, though <Static> printed it clipped; Esc there does not cancel the model call', async () => {
    const controller = new TuiController({ autoApproveCommands: true });
    const ui = await agentOn(controller);
    const long = Array.from({ length: 30 }, (_, i) => `result line ${i + 1}`).join('\n');
    controller.dispatch({ type: 'tool.call', id: 'c1', name: 'search_code', arguments: '{"code":"g("}' });
    controller.dispatch({ type: 'tool.result', id: 'c1', name: 'search_code', ok: true, text: long, durationMs: 1 });
    controller.dispatch({ type: 'tool.call', id: 'c2', name: 'view_directory', arguments: '{}' });
    controller.dispatch({
      type: 'tool.result',
      id: 'c2',
      name: 'view_directory',
      ok: true,
      text: 'a.py',
      durationMs: 1,
    });
    await frameShows(ui.lastFrame, '… 26 more lines (e expands, o opens any output)'); // the first one, in <Static>
    await frameShows(ui.lastFrame, '→ view_directory');
    const signal = controller.callSignal();
    ui.stdin.write('o');
    await frameShows(ui.lastFrame, /Outputs so far \(\d+\)/);
    ui.stdin.write(KEYS.up); // from the latest (view_directory) to search_code
    await frameShows(ui.lastFrame, /❯ +2 → search_code/);
    ui.stdin.write(KEYS.enter);
    // The <Static> history above shows the output's first lines too: wait for the viewer.
    await frameShows(ui.lastFrame, 'output 2 of 3, in full');
    expect(ui.lastFrame()).toContain('result line 1');
    ui.stdin.write('\u001B[F'); // End
    await frameShows(ui.lastFrame, 'result line 30');
    ui.stdin.write(KEYS.escape); // back to the list
    await frameShows(ui.lastFrame, /Outputs so far \(\d+\)/);
    ui.stdin.write(KEYS.escape); // closed
    await frameShows(ui.lastFrame, '0 tokens in');
    expect(signal.aborted).toBe(false);
    ui.unmount();
  });

  it('the result screen and its last line say what became of the patch', async () => {
    const controller = new TuiController({ autoApproveCommands: true });
    const ui = await agentOn(controller);
    const decision = controller.acceptPatch(result(true));
    await frameShows(ui.lastFrame, 'a apply the patch');
    ui.stdin.write('q');
    expect(await decision).toBe('save');
    controller.dispatch({ type: 'patch.decision', decision: 'save', applied: false });
    controller.dispatch(result(true));
    await frameShows(ui.lastFrame, 'patch kept in the session only (tenet show prints it) · session s1 saved');
    controller.dispatch({
      type: 'patch.decision',
      decision: 'accept',
      applied: false,
      reason: 'invoicing/tax.py changed since the session started',
    });
    // The run is over (no key is left): where the patch still is, wrapped rather than cut off.
    const joined = () =>
      (ui.lastFrame() ?? '')
        .split('\n')
        .map((row) => row.trimEnd())
        .join(' ');
    const notApplied =
      'patch not applied: invoicing/tax.py changed since the session started · it is kept in the session: tenet show s1 prints it (under Result), to apply by hand · session s1 saved';
    await until(() => joined().includes(notApplied), joined);
    expect(joined()).toContain(notApplied);
    controller.dispatch({ type: 'patch.decision', decision: 'save', applied: false, file: '/tmp/tenet-s1.patch' });
    await frameShows(ui.lastFrame, 'patch saved to /tmp/tenet-s1.patch');
    ui.unmount();
  });

  it('? shows every key; Ctrl+C once warns, twice quits', async () => {
    const controller = new TuiController({ autoApproveCommands: true });
    let quit = 0;
    const ui = render(<LiveApp controller={controller} finished={false} onQuit={() => quit++} />);
    controller.dispatch(start);
    await frameShows(ui.lastFrame, 'Test Harness Mechanism · m.py::f');
    ui.stdin.write('?');
    await frameShows(ui.lastFrame, 'Keys (? or Esc to close)');
    expect(ui.lastFrame()).toContain('Ctrl+C twice');
    ui.stdin.write('?');
    await until(
      () => !ui.lastFrame()!.includes('Keys (? or Esc to close)'),
      () => ui.lastFrame() ?? '',
    );
    ui.stdin.write('\u0003');
    await frameShows(ui.lastFrame, 'Press Ctrl+C again to quit');
    ui.stdin.write('\u0003');
    await until(() => quit > 0);
    expect(quit).toBe(1);
    ui.unmount();
  });
});
