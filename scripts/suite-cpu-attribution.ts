/**
 * Which test file made the machine spend its CPU: process accounting's records (`dump-acct`'s
 * lines) tied to the end-to-end files that started them (test/setup/file-times.ts's lines). A
 * process belongs to the file its worker was running when the process's ancestor just below the
 * worker started. Used by scripts/suite-cpu.ts.
 *
 * Process ids come round again in a long run (pid_max is 32,768 here, a suite starts 35,000
 * processes), so a parent is the record of its id that was alive when the child started.
 */

/** One process as accounting saw it when it ended. */
export interface ProcessRecord {
  command: string;
  pid: number;
  ppid: number;
  /** CPU-seconds, user and system; a process shorter than a clock tick counts 0. */
  cpu: number;
  /** Start, seconds since the epoch (accounting keeps whole seconds). */
  start: number;
  /** Seconds from start to end. */
  elapsed: number;
}

/** One end-to-end file as its worker ran it. */
export interface FileSpan {
  worker: number;
  /** Seconds since the epoch. */
  began: number;
  ended: number;
  file: string;
}

export interface Share {
  cpu: number;
  processes: number;
  /** CPU-seconds by command name. */
  commands: Map<string, number>;
}

export interface Attribution {
  /** By test file; also `(a worker between files)` and `(a worker itself)`. */
  files: Map<string, Share>;
  /** Processes no worker started, by the command at the top of their known ancestry. */
  outside: Map<string, Share>;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** `Mon Dec  7 16:30:14 2026`, in the machine's time zone, as dump-acct prints a start. */
function startSeconds(text: string): number | undefined {
  const match = /^\w{3} (\w{3}) +(\d+) (\d+):(\d+):(\d+) (\d{4})$/.exec(text.trim());
  if (!match) return undefined;
  const [, month, day, hours, minutes, seconds, year] = match;
  const index = MONTHS.indexOf(month!);
  if (index < 0) return undefined;
  return new Date(Number(year), index, Number(day), Number(hours), Number(minutes), Number(seconds)).getTime() / 1000;
}

/**
 * dump-acct's lines: `command|v3|utime|stime|etime|uid|gid|mem|io|pid|ppid|flags|exit|tty|start`,
 * the times in clock ticks of 1/100 s. Lines of another shape are left out.
 */
export function parseAccounting(text: string): ProcessRecord[] {
  const records: ProcessRecord[] = [];
  for (const line of text.split('\n')) {
    const fields = line.split('|').map((field) => field.trim());
    if (fields.length < 15) continue;
    const [user, system, elapsed, pid, ppid] = [fields[2], fields[3], fields[4], fields[9], fields[10]].map(Number);
    const start = startSeconds(fields[14]!);
    if ([user, system, elapsed, pid, ppid].some((n) => !Number.isFinite(n)) || start === undefined) continue;
    records.push({
      command: fields[0]!,
      pid: pid!,
      ppid: ppid!,
      cpu: (user! + system!) / 100,
      start,
      elapsed: elapsed! / 100,
    });
  }
  return records;
}

/** test/setup/file-times.ts's lines: `worker began ended path`, the times in milliseconds. */
export function parseFileLog(text: string, root = ''): FileSpan[] {
  return text.split('\n').flatMap((line) => {
    const match = /^(\d+) (\d+) (\d+) (.+)$/.exec(line.trim());
    if (!match) return [];
    const file = root && match[4]!.startsWith(`${root}/`) ? match[4]!.slice(root.length + 1) : match[4]!;
    return [{ worker: Number(match[1]), began: Number(match[2]) / 1000, ended: Number(match[3]) / 1000, file }];
  });
}

/** Starts are whole seconds, and a file's hooks run a little inside its worker's span. */
const SLACK_S = 1.5;

function add(shares: Map<string, Share>, key: string, record: ProcessRecord): void {
  let share = shares.get(key);
  if (!share) shares.set(key, (share = { cpu: 0, processes: 0, commands: new Map() }));
  share.cpu += record.cpu;
  share.processes += 1;
  share.commands.set(record.command, (share.commands.get(record.command) ?? 0) + record.cpu);
}

export function attribute(records: readonly ProcessRecord[], spans: readonly FileSpan[]): Attribution {
  const byPid = new Map<number, ProcessRecord[]>();
  for (const record of records) {
    const same = byPid.get(record.pid);
    if (same) same.push(record);
    else byPid.set(record.pid, [record]);
  }
  const workers = new Map<number, FileSpan[]>();
  for (const span of spans) {
    const own = workers.get(span.worker);
    if (own) own.push(span);
    else workers.set(span.worker, [span]);
  }
  /** The record of the process's parent: of those with its id, the latest to start while alive at the child's start. */
  const parentOf = (child: ProcessRecord): ProcessRecord | undefined => {
    let found: ProcessRecord | undefined;
    for (const candidate of byPid.get(child.ppid) ?? [])
      if (
        candidate.start <= child.start + 1 &&
        child.start <= candidate.start + candidate.elapsed + 2 &&
        (!found || candidate.start > found.start)
      )
        found = candidate;
    return found ?? outerBwrap(child);
  };
  /**
   * bubblewrap runs a sandbox as two processes: the one its caller started, and the one that one
   * forks at once into the new namespaces. tenet stops a sandbox by killing the first, so the second
   * often ends as an orphan (parent 1). Its parent is then the bwrap that started in the same
   * second with an id just below its own.
   */
  const outerBwrap = (child: ProcessRecord): ProcessRecord | undefined => {
    if (child.command !== 'bwrap' || child.ppid !== 1) return undefined;
    for (let pid = child.pid - 1; pid >= child.pid - 4; pid--)
      for (const candidate of byPid.get(pid) ?? [])
        if (candidate.command === 'bwrap' && Math.abs(candidate.start - child.start) <= 1) return candidate;
    return undefined;
  };
  const files = new Map<string, Share>();
  const outside = new Map<string, Share>();
  for (const record of records) {
    if (workers.has(record.pid)) {
      add(files, '(a worker itself)', record);
      continue;
    }
    // Up the ancestry to the process just below a worker, or to the first parent with no record.
    let below = record;
    while (!workers.has(below.ppid)) {
      const parent = parentOf(below);
      if (!parent) break;
      below = parent;
    }
    const spansOf = workers.get(below.ppid);
    if (!spansOf) {
      add(outside, below.command, record);
      continue;
    }
    const span = spansOf.find((s) => s.began - SLACK_S <= below.start && below.start <= s.ended + SLACK_S);
    add(files, span?.file ?? '(a worker between files)', record);
  }
  return { files, outside };
}
