import type { Sandbox } from '../sandbox/sandbox';
import type { Workspace } from '../workspace/workspace';
import type { PluginCollectError, PluginEvent, PluginTestEvent, ProbeFrame } from './plugin-lines';

/** What one pytest pass of THM's plugin is asked (see runPytestPass in pytest-pass.ts), and what it gives. */

export interface PassOptions {
  sandbox: Sandbox;
  workspace: Workspace;
  python: string;
  /** Environment for the pytest processes (PYTHONPATH, TENET_ROOT, TENET_TARGET_FILE). */
  env: Record<string, string>;
  testArgs: string[];
  shards: number;
  /**
   * Run only this shard of `count` (the plugin's TENET_SHARD), as a process of its own: one lane of
   * a judged run whose lanes each have their own copy and sandbox (see runTestsInLanes).
   */
  shard?: { index: number; count: number };
  /** `--jobs auto`: at most `shards` lanes, fewer for a small scope (the plugin decides after collecting). */
  autoShards?: boolean;
  testTimeoutSec: number;
  /** Date.now() by which the whole pass must end. */
  deadline?: number;
  /** Run only these node ids (a file path stands for all of its tests). */
  only?: string[];
  /** Leave these test files uncollected and these tests out (the reach index vouches for them; see reach-scope.ts). */
  leaveOut?: { files: string[]; tests: string[] };
  /**
   * How the probe behaves: record the chain only, fork a blank twin at the first call (see
   * _tenet_probe), or both worlds from one collection (lanes for the blank world, then lanes
   * for the original one on what failed blank; see _tenet_thm).
   */
  mode: PassMode;
  /** Names this pass's scratch files. */
  label: string;
  /** False when no failure report of this pass is read (its outcomes only): none is built. */
  reportText?: boolean;
  signal?: AbortSignal;
  onEvent?: (event: PluginEvent) => void;
  /**
   * Run the submitted code under tenet's judge (see source/python/_tenet_judge/): its definition's lines in
   * the target's file, and what changed in the copy since the run began (asked before a crashed
   * process is started again, which would load what the judged code wrote there). One process, or
   * one shard (`shard`) a process of its own: never forked lanes, whose events share one channel.
   */
  judge?: {
    lines: [number, number];
    changedCopy: () => Promise<string | undefined>;
    /** More code counted as submitted (a plan's earlier targets; qa/judge.ts, the false-alarm check): [file, first, last] each. */
    spans?: [string, number, number][];
  };
}

export type PassMode = 'record' | 'fork' | 'worlds';

export interface PassResult {
  /** Shards the tests ran in (with auto shards, what the plugin chose). */
  shards: number;
  /** Tests in scope after pytest's own deselection (-k, -m) and before sharding. */
  collected: number;
  tests: Map<string, PluginTestEvent>;
  /** Mode worlds: the original world's outcomes of the tests that failed blank (of those its lanes finished). */
  original: Map<string, PluginTestEvent>;
  collectErrors: PluginCollectError[];
  /** Twin mode: modules that called the target at import time. */
  collectHits: Extract<PluginEvent, { e: 'collecthit' }>[];
  /** The chain of the target's first call outside every test and collector before the tests ran (a conftest.py's import or hook). */
  startHit?: ProbeFrame[];
  /** Whether the workspace's target module was imported by any shard. */
  targetLoaded: boolean;
  /** Copies of the target module imported from outside the workspace. */
  outside: { module: string; file: string }[];
  /** Of `leaveOut`, the files pytest came to (and left uncollected) and the tests it deselected. */
  leftOut: { files: Set<string>; tests: Set<string> };
  /** Why pytest could not run (usage errors, internal errors), with its output. */
  problems: string[];
  /** What the run changed of the project's own configuration, said once (pytest-xdist turned off). */
  notes: string[];
  timedOut: boolean;
  aborted: boolean;
  /** A judged run: where the submitted code reached into the test harness. */
  tripped: Extract<PluginEvent, { e: 'tripped' }>[];
  /** A judged run: a report the judge did not sign, or a change to the copy a restarted process would load. */
  forged?: string;
}
