import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { benchReportCommand } from '../../source/commands/bench-report';
import { buildReport, type BenchReport } from '../../source/engine/bench/report';
import { niceCeiling } from '../../source/engine/bench/report-chart';
import { renderReport } from '../../source/engine/bench/report-format';
import type { RunManifest, TaskResult } from '../../source/engine/bench/run-dir';
import { TenetError } from '../../source/engine/errors';

let scratch: string;

interface Row {
  id: string;
  pass: boolean;
  input: number;
  output: number;
  calls: number;
  tools: number;
  cost: number;
  wallMs: number;
  error?: string;
  /** The prompt cache: tokens read, and what it saved; a row without them is a run recorded before tenet counted the cache. */
  cached?: { read: number; saved: number };
}

function result(row: Row): TaskResult {
  const repository = row.id.split('-')[0]!;
  return {
    taskId: row.id,
    repository,
    target: `${repository}/mod.py::f`,
    sessionId: `s-${row.id}`,
    pass: row.pass,
    stopReason: row.error ? 'error' : row.pass ? 'passed' : 'budget',
    usage: {
      inputTokens: row.input,
      outputTokens: row.output,
      modelCalls: row.calls,
      toolCalls: row.tools,
      ...(row.cached ? { cacheReadTokens: row.cached.read, cacheWriteTokens: 0 } : {}),
    },
    costUsd: row.cost,
    ...(row.cached ? { cacheSavedUsd: row.cached.saved } : {}),
    wallMs: row.wallMs,
    ...(row.error ? { error: row.error } : {}),
    finishedAt: '2026-01-01T00:00:00Z',
  };
}

/** A run folder as `tenet bench run` leaves it; `tasks` are written to a tasks file in the run folder when given. */
function makeRun(name: string, label: string, rows: Row[], tasks?: string[]): string {
  const dir = join(scratch, name);
  mkdirSync(dir, { recursive: true });
  const manifest: RunManifest = {
    format: 'tenet-bench-run',
    version: 1,
    label,
    tasksFile: tasks ? 'tasks.jsonl' : join(scratch, 'moved-away.jsonl'),
    createdAt: '2026-01-01T00:00:00Z',
    config: { strategy: label === 'tdd' ? 'tdd' : 'tenet', model: 'gpt-4.1-mini', T: 3 },
  };
  writeFileSync(join(dir, 'run.json'), JSON.stringify(manifest));
  if (tasks) {
    const lines = tasks.map((id) => {
      const [repository, repoId] = id.split('-');
      return JSON.stringify({ repository, repo_id: repoId, target_module_path: 'mod.py', function_name: 'f' });
    });
    writeFileSync(join(dir, 'tasks.jsonl'), `${lines.join('\n')}\n`);
  }
  // A torn last line, as a killed run leaves it: ignored.
  writeFileSync(
    join(dir, 'results.jsonl'),
    `${rows.map((row) => JSON.stringify(result(row))).join('\n')}\n{"taskId":"sympy-2","pa`,
  );
  return dir;
}

// Configuration "tenet": five tasks planned, four finished (sympy-2 not yet), one of them errored.
// flask-3 says pass: true next to its error, so that "an error is a failure" is what decides it.
const TENET: Row[] = [
  {
    id: 'flask-1',
    pass: true,
    input: 1000,
    output: 100,
    calls: 5,
    tools: 4,
    cost: 0.02,
    wallMs: 10_000,
    cached: { read: 600, saved: 0.01 },
  },
  {
    id: 'flask-2',
    pass: true,
    input: 3000,
    output: 300,
    calls: 9,
    tools: 8,
    cost: 0.06,
    wallMs: 30_000,
    cached: { read: 2400, saved: 0.03 },
  },
  {
    id: 'flask-3',
    pass: true,
    input: 0,
    output: 0,
    calls: 0,
    tools: 2,
    cost: 0,
    wallMs: 2_000,
    error: 'pytest crashed',
    cached: { read: 0, saved: 0 },
  },
  {
    id: 'sympy-1',
    pass: false,
    input: 4000,
    output: 400,
    calls: 10,
    tools: 12,
    cost: 0.08,
    wallMs: 40_000,
    cached: { read: 1000, saved: 0.012 },
  },
];
// Configuration "tdd": no pass at all, a repository (click) the other lacks, its tasks file moved away;
// recorded before tenet counted the prompt cache (no cache counts: its cache figures are dashes).
const TDD: Row[] = [
  { id: 'flask-1', pass: false, input: 2000, output: 500, calls: 12, tools: 10, cost: 0.05, wallMs: 60_000 },
  { id: 'flask-2', pass: false, input: 1000, output: 250, calls: 6, tools: 5, cost: 0.025, wallMs: 30_000 },
  { id: 'sympy-1', pass: false, input: 1500, output: 302, calls: 8, tools: 7, cost: 0.031, wallMs: 45_000 },
  {
    id: 'click-1',
    pass: false,
    input: 500,
    output: 0,
    calls: 2,
    tools: 0,
    cost: 0.002,
    wallMs: 5_000,
    error: 'provider failed',
  },
];

let tenetDir: string;
let tddDir: string;
let report: BenchReport;
let warnings: string[];

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'tenet-report-'));
  tenetDir = makeRun('tenet-run', 'tenet', TENET, ['flask-1', 'flask-2', 'flask-3', 'sympy-1', 'sympy-2']);
  tddDir = makeRun('tdd-run', 'tdd', TDD);
  ({ report, warnings } = buildReport([tenetDir, tddDir]));
});

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('bench report figures', () => {
  it('computes a configuration overall: errors are failures, averages over finished tasks, CoP = avg cost / Pass@1', () => {
    const [tenet] = report.configurations;
    expect(tenet!.label).toBe('tenet');
    expect(tenet!.config).toEqual({ strategy: 'tenet', model: 'gpt-4.1-mini', T: 3 });
    const f = tenet!.overall;
    // 5 planned, 4 finished, flask-3 errored; passed flask-1 and flask-2: 2/4.
    expect([f.tasks, f.finished, f.errors, f.passed]).toEqual([5, 4, 1, 2]);
    expect(f.passAt1).toBe(0.5);
    expect(f.avgInputTokens).toBe(2000); // (1000+3000+0+4000)/4
    expect(f.avgOutputTokens).toBe(200); // (100+300+0+400)/4
    expect(f.avgCostUsd).toBeCloseTo(0.04, 12); // (0.02+0.06+0+0.08)/4
    expect(f.costOfPass).toBeCloseTo(0.08, 12); // 0.04/0.5 = total 0.16 / 2 passes
    expect(f.avgModelCalls).toBe(6); // (5+9+0+10)/4
    expect(f.avgToolCalls).toBe(6.5); // (4+8+2+12)/4
    expect(f.avgWallMs).toBe(20_500); // (10+30+2+40)s/4
    expect(f.cachedShare).toBe(0.5); // (600+2400+0+1000)/(1000+3000+0+4000)
    expect(f.avgCacheSavedUsd).toBeCloseTo(0.013, 12); // (0.01+0.03+0+0.012)/4
    // A run from before the cache was counted has no cache figures, rather than a 0% that was never measured.
    expect([report.configurations[1]!.overall.cachedShare, report.configurations[1]!.overall.avgCacheSavedUsd]).toEqual(
      [null, null],
    );
  });

  it('computes per repository, with the tasks not finished yet counted in tasks only', () => {
    const { flask, sympy } = report.configurations[0]!.repositories;
    expect(Object.keys(report.configurations[0]!.repositories)).toEqual(['flask', 'sympy']);
    expect([flask!.tasks, flask!.finished, flask!.errors, flask!.passed]).toEqual([3, 3, 1, 2]);
    expect(flask!.passAt1).toBeCloseTo(2 / 3, 12);
    expect(flask!.avgInputTokens).toBeCloseTo(4000 / 3, 9);
    expect(flask!.avgCostUsd).toBeCloseTo(0.08 / 3, 12);
    expect(flask!.costOfPass).toBeCloseTo(0.04, 12); // (0.08/3)/(2/3)
    // sympy-2 is planned but not finished: 1 of 2, no pass, so CoP is infinite (null).
    expect([sympy!.tasks, sympy!.finished, sympy!.passed, sympy!.passAt1, sympy!.costOfPass]).toEqual([
      2,
      1,
      0,
      0,
      null,
    ]);
    expect(sympy!.avgWallMs).toBe(40_000);
  });

  it('a configuration with zero passes has Pass@1 0 and no CoP; a missing tasks file counts finished tasks and warns', () => {
    const tdd = report.configurations[1]!;
    const f = tdd.overall;
    expect([f.tasks, f.finished, f.errors, f.passed, f.passAt1, f.costOfPass]).toEqual([4, 4, 1, 0, 0, null]);
    expect(f.avgInputTokens).toBe(1250); // (2000+1000+1500+500)/4
    expect(f.avgOutputTokens).toBe(263); // (500+250+302+0)/4
    expect(f.avgCostUsd).toBeCloseTo(0.027, 12); // 0.108/4
    expect(f.avgModelCalls).toBe(7); // 28/4
    expect(f.avgToolCalls).toBe(5.5); // 22/4
    expect(f.avgWallMs).toBe(35_000); // 140s/4
    expect(Object.keys(tdd.repositories)).toEqual(['click', 'flask', 'sympy']);
    expect(tdd.repositories.click).toMatchObject({ tasks: 1, finished: 1, errors: 1, passAt1: 0 });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('moved-away.jsonl');
  });

  it('gives configurations that share a label their folder, so columns stay apart', () => {
    const { report: twice } = buildReport([tenetDir, tenetDir]);
    expect(twice.configurations.map((c) => c.label)).toEqual([`tenet (${tenetDir})`, `tenet (${tenetDir})`]);
    const other = makeRun('other-run', 'tenet', TENET.slice(0, 1), ['flask-1']);
    const { report: both } = buildReport([tenetDir, other, tddDir]);
    expect(both.configurations.map((c) => c.label)).toEqual([`tenet (${tenetDir})`, `tenet (${other})`, 'tdd']);
  });

  it('refuses a folder that is not a run, naming it', () => {
    const empty = join(scratch, 'empty');
    mkdirSync(empty, { recursive: true });
    expect(() => buildReport([tenetDir, empty])).toThrow(TenetError);
    expect(() => buildReport([empty])).toThrow(`${empty} is not a benchmark run`);
    expect(() => buildReport([join(scratch, 'nowhere')])).toThrow('is not a folder');
    const broken = join(scratch, 'broken');
    mkdirSync(broken, { recursive: true });
    writeFileSync(join(broken, 'run.json'), '{"format":');
    expect(() => buildReport([broken])).toThrow(TenetError);
    expect(() => buildReport([])).toThrow(TenetError);
  });
});

describe('bench report formats', () => {
  it('writes the paper-style Markdown tables', () => {
    const lines = renderReport(report, 'md').split('\n');
    const summary = lines.indexOf(
      '| Configuration | Finished | Errors | Pass@1 | Avg input tokens | Avg output tokens | Cached input | Avg cost (USD) | Avg saved by caching (USD) | CoP (USD) | Avg API calls | Avg tool calls | Avg wall time (s) |',
    );
    expect(summary).toBeGreaterThan(0);
    expect(lines.slice(summary + 1, summary + 4)).toEqual([
      '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
      '| tenet | 4/5 | 1 | 50.00% | 2,000 | 200 | 50.00% | 0.0400 | 0.0130 | 0.0800 | 6.0 | 6.5 | 20.5 |',
      '| tdd | 4/4 | 1 | 0.00% | 1,250 | 263 | – | 0.0270 | – | ∞ | 7.0 | 5.5 | 35.0 |',
    ]);
    const perRepo = lines.indexOf('| Repository | tenet | tdd |');
    expect(lines[perRepo - 2]).toBe('## Pass@1 per repository');
    // Best of a row in bold; a row where both agree (sympy, 0%) has none; tenet never ran click.
    expect(lines.slice(perRepo + 1, perRepo + 6)).toEqual([
      '| --- | ---: | ---: |',
      '| click | – | 0.00% |',
      '| flask | **66.67%** | 0.00% |',
      '| sympy | 0.00% | 0.00% |',
      '| Overall | **50.00%** | 0.00% |',
    ]);
    expect(lines).toContain(`- **tdd** (${tddDir.replace(/_/g, '\\_')}): strategy=tdd, model=gpt-4.1-mini, T=3`);
  });

  it("writes a table per repository with the summary's columns, hand-computed", () => {
    const lines = renderReport(report, 'md').split('\n');
    const table = (repository: string) => {
      const heading = lines.indexOf(`### ${repository}`);
      expect(heading).toBeGreaterThan(lines.indexOf('## Figures per repository'));
      return lines.slice(heading + 2, heading + 6);
    };
    const header =
      '| Configuration | Finished | Errors | Pass@1 | Avg input tokens | Avg output tokens | Cached input | Avg cost (USD) | Avg saved by caching (USD) | CoP (USD) | Avg API calls | Avg tool calls | Avg wall time (s) |';
    const align = '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |';
    expect(lines.indexOf('## Figures per repository')).toBeGreaterThan(lines.indexOf('## Pass@1 per repository'));
    // tenet never ran click: dashes. tdd click-1 errored: 500 in, 0 out, $0.002, 2 calls, 0 tools, 5 s.
    expect(table('click')).toEqual([
      header,
      align,
      '| tenet | – | – | – | – | – | – | – | – | – | – | – | – |',
      '| tdd | 1/1 | 1 | 0.00% | 500 | 0 | – | 0.0020 | – | ∞ | 2.0 | 0.0 | 5.0 |',
    ]);
    // tenet flask: 2 of 3 pass; input 4000/3 = 1,333; output 400/3 = 133; cached 3000/4000; cost 0.08/3 = 0.0267;
    // saved by caching 0.04/3 = 0.0133; CoP 0.0267/(2/3) = 0.04;
    // calls 14/3 = 4.7; tools 14/3 = 4.7; wall 42 s/3 = 14.0. tdd flask: input 3000/2, output 750/2, cost 0.075/2,
    // calls 18/2, tools 15/2, wall 90 s/2.
    expect(table('flask')).toEqual([
      header,
      align,
      '| tenet | 3/3 | 1 | 66.67% | 1,333 | 133 | 75.00% | 0.0267 | 0.0133 | 0.0400 | 4.7 | 4.7 | 14.0 |',
      '| tdd | 2/2 | 0 | 0.00% | 1,500 | 375 | – | 0.0375 | – | ∞ | 9.0 | 7.5 | 45.0 |',
    ]);
    // tenet sympy: sympy-2 planned but not finished, so 1/2.
    expect(table('sympy')).toEqual([
      header,
      align,
      '| tenet | 1/2 | 0 | 0.00% | 4,000 | 400 | 25.00% | 0.0800 | 0.0120 | ∞ | 10.0 | 12.0 | 40.0 |',
      '| tdd | 1/1 | 0 | 0.00% | 1,500 | 302 | – | 0.0310 | – | ∞ | 8.0 | 7.0 | 45.0 |',
    ]);
    const html = renderReport(report, 'html');
    expect(html).toContain('<h3>flask</h3>');
    expect(html).toContain(
      '<td>tenet</td><td class="num">3/3</td><td class="num">1</td><td class="num">66.67%</td><td class="num">1,333</td>',
    );
  });

  it('escapes a table cell separator in a Markdown label', () => {
    const piped = makeRun('piped-run', 'a|b_c', TENET, ['flask-1']);
    const md = renderReport(buildReport([piped]).report, 'md');
    expect(md).toContain('| a\\|b\\_c | 4/4 | 1 | 50.00% |');
  });

  it('writes JSON with Pass@1 overall and per repository', () => {
    const json = JSON.parse(renderReport(report, 'json'));
    expect(json.configurations[0].overall.passAt1).toBe(0.5);
    expect(json.configurations[0].repositories.flask.passed).toBe(2);
    expect(json.configurations[1].repositories.sympy.passAt1).toBe(0);
    expect(json.configurations[1].overall.costOfPass).toBeNull();
  });

  it('writes a self-contained HTML page: one pass bar per configuration, labels escaped, nothing fetched', () => {
    const evil = makeRun('evil-run', '<script>alert("x")</script>', TENET, [
      'flask-1',
      'flask-2',
      'flask-3',
      'sympy-1',
    ]);
    const html = renderReport(buildReport([tenetDir, tddDir, evil]).report, 'html');
    const svg = html.slice(html.indexOf('<svg'), html.indexOf('</svg>'));
    expect(svg.length).toBeGreaterThan(0);
    // The legend has one swatch of each class; the rest are bars, one per configuration.
    expect(svg.match(/<rect class="bar-pass"/g)).toHaveLength(1 + 3);
    expect(svg.match(/<rect class="bar-cost"/g)).toHaveLength(1 + 3);
    // Heights: plot 220 px; tenet 0.5 → 110; tdd 0 → 0; cost axis tops at 0.05 (0.04 rounded up): 0.04 → 176, 0.027 → 118.8.
    expect(svg).toContain('height="110"><title>tenet: Pass@1 50.00%</title>');
    expect(svg).toContain('height="0"><title>tdd: Pass@1 0.00%</title>');
    expect(svg).toContain('height="176"><title>tenet: avg cost $0.0400</title>');
    expect(svg).toContain('height="118.8"><title>tdd: avg cost $0.0270</title>');
    expect(svg).toContain('>$0.05</text>');
    expect(html).not.toContain('<script');
    expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
    expect(html).not.toMatch(/(src|href)\s*=\s*["']?\s*(https?:)?\/\//i);
    expect(html).not.toMatch(/https?:/i);
    expect(html).toContain('<td class="num best">66.67%</td>');
  });

  it('rounds the cost axis up to 1, 2, 2.5 or 5 times a power of ten', () => {
    expect([
      niceCeiling(0.04),
      niceCeiling(0.02),
      niceCeiling(0.021),
      niceCeiling(3),
      niceCeiling(7),
      niceCeiling(0),
    ]).toEqual([0.05, 0.02, 0.025, 5, 10, 1]);
  });
});

describe('tenet bench report command', () => {
  afterEach(() => vi.restoreAllMocks());

  it('prints to stdout, or writes --out', async () => {
    const printed: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => (printed.push(String(chunk)), true));
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    expect(await benchReportCommand({ runDirs: [tenetDir], format: 'md' })).toBe(0);
    expect(printed.join('')).toContain('| tenet | 4/5 | 1 | 50.00% |');
    const out = join(scratch, 'reports', 'report.html');
    expect(await benchReportCommand({ runDirs: [tenetDir, tddDir], format: 'html', out })).toBe(0);
    expect(readFileSync(out, 'utf8')).toMatch(/^<!doctype html>/);
  });

  it('rejects a folder that is not a run and an unknown format with a TenetError', async () => {
    await expect(benchReportCommand({ runDirs: [scratch], format: 'md' })).rejects.toThrow(TenetError);
    await expect(benchReportCommand({ runDirs: [tenetDir], format: 'pdf' as 'md' })).rejects.toThrow(
      'Unknown report format pdf',
    );
  });
});

describe('unverified tasks in the report', () => {
  it('lists each with its reason (Markdown, HTML, JSON), and says when an older run did not keep one', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tenet-bench-unverified-'));
    try {
      const manifest: RunManifest = {
        format: 'tenet-bench-run',
        version: 1,
        label: 'tenet',
        tasksFile: join(dir, 'gone.jsonl'),
        createdAt: '2026-01-01T00:00:00Z',
        config: {},
      };
      writeFileSync(join(dir, 'run.json'), JSON.stringify(manifest));
      const base = {
        repository: 'flask',
        target: 'flask/mod.py::f',
        pass: false,
        usage: { inputTokens: 1, outputTokens: 1, modelCalls: 1, toolCalls: 1 },
        costUsd: 0,
        wallMs: 1,
        finishedAt: '2026-01-01T00:00:00Z',
      };
      const rows: TaskResult[] = [
        { ...base, taskId: 'flask-2', sessionId: 's2', stopReason: 'unverified' },
        {
          ...base,
          taskId: 'flask-1',
          sessionId: 's1',
          stopReason: 'unverified',
          unverified: 'the checkout changed while the agent worked (a<b>.py)',
        },
        { ...base, taskId: 'flask-3', sessionId: 's3', stopReason: 'budget' },
      ];
      writeFileSync(join(dir, 'results.jsonl'), `${rows.map((row) => JSON.stringify(row)).join('\n')}\n`);
      const { report } = buildReport([dir]);
      expect(report.configurations[0]!.unverified).toEqual([
        { taskId: 'flask-1', repository: 'flask', reason: 'the checkout changed while the agent worked (a<b>.py)' },
        { taskId: 'flask-2', repository: 'flask', reason: 'not recorded (a run from before tenet kept the reason)' },
      ]);
      const md = renderReport(report, 'md');
      expect(md).toContain(
        '## Unverified tasks (counted as failures)\n\n- tenet: flask-1 (flask): the checkout changed while the agent worked (a\\<b\\>.py)\n- tenet: flask-2 (flask): not recorded',
      );
      expect(renderReport(report, 'html')).toContain(
        '<li>tenet: flask-1 (flask): the checkout changed while the agent worked (a&lt;b&gt;.py)</li>',
      );
      // A run with none has no such section.
      writeFileSync(join(dir, 'results.jsonl'), `${JSON.stringify(rows[2])}\n`);
      expect(renderReport(buildReport([dir]).report, 'md')).not.toContain('Unverified');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
