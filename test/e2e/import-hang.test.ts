import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTask, type OpenTask } from '../../source/engine/task/open-task';
import { callTool } from '../../source/engine/tools/call-tool';
import type { ToolContext } from '../../source/engine/tools/context';
import { openToolbox } from '../../source/engine/tools/toolbox';
import { FIXTURES } from '../helpers/fixtures';

// tests/test_constants.py calls the target at import time: a target that loops forever makes
// pytest hang while it collects, before any test starts and any per-test timeout can fire.
const CONSTANTS = 'tests/test_constants.py::test_half_price';
const BASIC = 'tests/test_pricing.py::test_apply_discount_basic';

describe('a test module whose import never ends', () => {
  let task: OpenTask;
  let ctx: ToolContext;
  let dispose: () => void;
  beforeAll(async () => {
    task = await openTask({ repo: join(FIXTURES, 'shop'), target: 'shop/pricing.py::apply_discount', blank: true });
    const toolbox = await openToolbox(task, {
      selectedTests: [CONSTANTS, BASIC],
      testTimeoutSec: 3,
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

  it('is stopped at the test timeout, reported as its tests failing, and the other tests still run', async () => {
    const loop = 'def apply_discount(price, percent):\n    while True:\n        pass\n';
    expect(await callTool('submit_implementation', { code: loop }, ctx)).toMatchObject({ ok: true });
    const started = Date.now();
    const { text } = await callTool('run_tests', {}, ctx);
    expect((Date.now() - started) / 1000).toBeLessThan(45);
    expect(text).toContain('importing the test module hung');
    expect(text).toMatch(new RegExp(`FAILED ${BASIC.replace(/[.[\]]/g, '\\$&')} \\(timed out\\)`));
    // A correct implementation afterwards: the module is collected again and both pass.
    const right =
      'def apply_discount(price, percent):\n    if percent < 0 or percent > 100:\n        raise ValueError("percent must be within 0..100")\n    return round(price * (100 - percent) / 100, 2)\n';
    expect(await callTool('submit_implementation', { code: right }, ctx)).toMatchObject({ ok: true });
    expect((await callTool('run_tests', {}, ctx)).text).toContain('Ran 2 tests: 2 passed, 0 not passing');
  }, 90_000);
});
