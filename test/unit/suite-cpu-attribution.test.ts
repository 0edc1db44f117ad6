import { describe, expect, it } from 'vitest';
import { attribute, parseAccounting, parseFileLog } from '../../scripts/suite-cpu-attribution';

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const T0 = new Date(2026, 11, 7, 16, 30, 0).getTime() / 1000;

/** A start as dump-acct prints it, in local time: `Mon Dec  7 16:30:14 2026`. */
function printed(seconds: number): string {
  const d = new Date(seconds * 1000);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${DAYS[d.getDay()]} ${MONTHS[d.getMonth()]} ${String(d.getDate()).padStart(2)} ${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())} ${d.getFullYear()}`;
}

/** A dump-acct line; times in ticks of 1/100 s. */
function acct(
  command: string,
  pid: number,
  ppid: number,
  cpuTicks: number,
  start: number,
  elapsedTicks: number,
): string {
  return `${command.padEnd(16)}|v3|${cpuTicks.toFixed(2).padStart(9)}|     0.00|${elapsedTicks.toFixed(2).padStart(9)}|     0|     0|  2476.00|     0.00|${String(pid).padStart(8)}|${String(ppid).padStart(8)}|     |       0|__      |${printed(start)}`;
}

describe('suite-cpu: processes tied to the test files that started them', () => {
  const log = [
    `100 ${T0 * 1000} ${(T0 + 10) * 1000} /repo/test/e2e/a.test.ts`,
    `100 ${(T0 + 11) * 1000} ${(T0 + 20) * 1000} /repo/test/e2e/b.test.ts`,
    `101 ${T0 * 1000} ${(T0 + 20) * 1000} /repo/test/e2e/c.test.ts`,
  ].join('\n');
  const lines = [
    // a's tenet (200) and the pytest under it
    acct('python3', 300, 200, 200, T0 + 3, 100),
    acct('node', 200, 100, 50, T0 + 2, 300),
    // pid 200 again, in b's time: its child is b's, not a's
    acct('python3', 301, 200, 70, T0 + 13, 100),
    acct('node', 200, 100, 30, T0 + 12, 300),
    // a grandchild of c's worker
    acct('bwrap', 400, 101, 1, T0 + 5, 200),
    acct('python3', 401, 400, 40, T0 + 5, 200),
    // a sandbox of c's whose outer bwrap was killed first: the inner one ends with parent 1
    acct('bwrap', 600, 101, 0, T0 + 7, 100),
    acct('bwrap', 601, 1, 0, T0 + 7, 150),
    acct('python3', 602, 601, 60, T0 + 7, 150),
    // a process whose parent was gone before it: outside the files
    acct('sh', 500, 1, 0, T0 + 6, 100),
    acct('python3', 501, 500, 90, T0 + 6, 100),
    // the workers themselves
    acct('node', 100, 99, 900, T0 - 1, 2200),
    acct('node', 101, 99, 800, T0 - 1, 2200),
    'not a line of dump-acct',
  ].join('\n');

  it('reads dump-acct and the file log', () => {
    const records = parseAccounting(lines);
    expect(records).toHaveLength(13);
    expect(records[0]).toEqual({ command: 'python3', pid: 300, ppid: 200, cpu: 2, start: T0 + 3, elapsed: 1 });
    expect(parseFileLog(log, '/repo')[1]).toEqual({
      worker: 100,
      began: T0 + 11,
      ended: T0 + 20,
      file: 'test/e2e/b.test.ts',
    });
  });

  it('follows each process up to its worker, through ids used twice, and takes the file running when it began', () => {
    const { files, outside } = attribute(parseAccounting(lines), parseFileLog(log, '/repo'));
    const cpu = (key: string) => files.get(key)?.cpu;
    expect(cpu('test/e2e/a.test.ts')).toBeCloseTo(2.5);
    expect(cpu('test/e2e/b.test.ts')).toBeCloseTo(1.0);
    expect(cpu('test/e2e/c.test.ts')).toBeCloseTo(1.01);
    expect(files.get('test/e2e/a.test.ts')?.commands).toEqual(
      new Map([
        ['python3', 2],
        ['node', 0.5],
      ]),
    );
    expect(cpu('(a worker itself)')).toBeCloseTo(17);
    expect(outside.get('sh')).toMatchObject({ processes: 2 });
    expect(outside.get('sh')?.cpu).toBeCloseTo(0.9);
    expect(outside.has('bwrap')).toBe(false);
  });
});
