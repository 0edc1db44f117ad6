import { appendFileSync } from 'node:fs';
import { afterAll, beforeAll, expect } from 'vitest';

/**
 * Where TENET_TEST_FILE_LOG names a file (scripts/suite-cpu.ts sets it), each end-to-end file
 * appends a line to it as it ends: its worker's pid, when it began and ended (milliseconds since
 * the epoch) and its path. That ties the processes process accounting lists, by their parents and
 * start times, to the files that started them. Without the variable nothing is registered.
 */
const log = process.env.TENET_TEST_FILE_LOG;
if (log) {
  let began = 0;
  beforeAll(() => {
    began = Date.now();
  });
  afterAll(() => {
    appendFileSync(log, `${process.pid} ${began} ${Date.now()} ${expect.getState().testPath}\n`);
  });
}
