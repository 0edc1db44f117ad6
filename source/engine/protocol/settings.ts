/**
 * What a run is configured with, as a session records it in `session.start.config` and resume,
 * rerun and the benchmark runner read it back. Each list of choices is declared once: the types,
 * the command-line choices and the config file's schema all come from it.
 */

/** `tenet` (the paper's pipeline), `tdd` (TDD-Agent), `tenet+tdd` (THM's tests and the agent's own, test-first). */
export const STRATEGIES = ['tenet', 'tdd', 'tenet+tdd'] as const;
export type Strategy = (typeof STRATEGIES)[number];

/** RQ4: how the tests the agent gets are chosen: THM's clusters, or a strategy that favours one property. */
export const SELECTIONS = ['thm', 'random', 'shortest', 'longest', 'most-assertions'] as const;
export type Selection = (typeof SELECTIONS)[number];

/** Where Python runs: this machine, or a container of a Docker engine. */
export const SANDBOX_KINDS = ['local', 'local-unconfined', 'docker'] as const;

/** RQ5: when the tests take part: not at all, before the first submission only, after it only, or both. */
export const TEST_STAGES = ['none', 'pregen', 'postgen', 'all'] as const;
export type TestStage = (typeof TEST_STAGES)[number];

export interface Budget {
  /** Model calls before the first submission (the paper: 15). */
  pregenRounds: number;
  /** Refinement attempts after a failing validation (the paper: 5). */
  rrwAttempts: number;
  /** Model calls per refinement attempt (the paper: 15). */
  rrwRounds: number;
}

export interface TddBudget {
  /** Model calls to inspect the repository and submit the first tests. */
  setupRounds: number;
  /** Runs of the agent's tests in the co-refinement phase (the paper: at most 10). */
  iterations: number;
  /** Model calls within one iteration before tenet runs the tests itself. */
  roundsPerIteration: number;
}

export interface Ablations {
  /** The agent gets every failing test THM found instead of its selection (`--no-thm`). */
  noThm: boolean;
  /** SpecRover's AST search tools only, without TENET's four (`--no-apis`). */
  noApis: boolean;
  /** Refinement with test feedback only, no three-stage workflow (`--no-rrw`). */
  noRrw: boolean;
}

/** The model a session talked to, without secrets. */
export interface ModelSettings {
  provider: string;
  model: string;
  baseUrl?: string;
  temperature: number;
  maxTokens: number;
  /** The model's context window in tokens, from the catalogue, `--context-window` or the config (absent: unknown, or a session recorded before tenet kept to it). */
  contextWindow?: number;
}

/** What a session's container may use. Generated code is untrusted: the defaults contain it. */
export interface ContainerLimits {
  /** Bytes of memory, swap included (the container gets no extra swap). */
  memoryBytes: number;
  cpus: number;
  pids: number;
  /** Size of the writable /tmp, in bytes. */
  tmpBytes: number;
  /** Network access; off by default. */
  network: boolean;
}

/** Where Python ran, as recorded (no secrets): this machine, or a container of a Docker engine. */
/** `passEnv`: the names `--pass-env` let through (never their values). */
/** A local one: `confinement` says whether bubblewrap held its processes (absent: a session from before it, unconfined). */
export type RecordedSandbox = (
  | { kind: 'local'; confinement?: 'bubblewrap' | 'none'; network?: boolean; reads?: string[] }
  | { kind: 'docker'; image: string; host?: string; mount: boolean; limits: ContainerLimits }
) & { passEnv?: string[] };

/** Settings a caller adds to the record: the model script's file, a rerun's original, a benchmark's task and host. */
/** How the model's shell commands are let through. */
export const APPROVE_MODES = ['ask', 'auto'] as const;
export type ApproveMode = (typeof APPROVE_MODES)[number];

export interface RecordedExtras {
  scriptFile?: string;
  /** The model's shell commands: asked for (the TUI in a local sandbox) or run without asking; resume asks again for one that was waiting. */
  approve?: ApproveMode;
  /** `--approve` as given (absent without it): `auto` holds when the session is resumed. */
  approveAsked?: ApproveMode;
  /** `--apply` / `--apply-failing` (only when given): a resumed session applies its patch as the run asked. */
  apply?: boolean;
  applyFailing?: boolean;
  rerunOf?: string;
  /** A plan: every `--target` as given; with `--plan-stop-on-fail`, `planStopOnFail`. */
  plan?: string[];
  planStopOnFail?: boolean;
  benchTask?: string;
  benchHost?: string;
}

/**
 * `session.start.config`: every setting that changes what a run does. Fields marked optional are
 * missing from sessions recorded by older versions; readers fall back to the defaults of then.
 */
/**
 * What a session may spend on its model (`--max-cost`, `--max-tokens`, the config's `limits`, per
 * task in `bench run`). Tokens are every token of every call, in and out, cached or not.
 */
export interface SpendLimits {
  maxCostUsd?: number;
  maxTokens?: number;
}

/**
 * The repository's instructions for coding agents (TENET.md, else AGENTS.md at its root), as they
 * went into the system prompt; see engine/task/project-instructions.ts.
 */
export interface ProjectInstructions {
  file: 'TENET.md' | 'AGENTS.md';
  /** What goes to the model (cut at the cap, with a note that says so). */
  text: string;
  /** The file's size in bytes. */
  bytes: number;
  /** The file was longer than the cap: `text` is its beginning. */
  cut?: true;
}

export interface SessionConfig extends ModelSettings, RecordedExtras {
  /** The repository's instructions the model got (resume and rerun use this text, not the file as it is now); `off`: `--no-project-instructions`; absent: the repository had none, or tenet did not read them then. */
  instructions?: ProjectInstructions | 'off';
  budget: Budget;
  /** The session's cost and token limits (none set: no key). */
  limits?: SpendLimits;
  /** TDD strategies only. */
  tddBudget?: TddBudget;
  select?: Selection;
  testStage?: TestStage;
  ablations: Ablations;
  /** THM's selection budget; `all` for every reached failing test. */
  T?: number | 'all';
  testArgs?: string[];
  jobs?: number | 'auto';
  /** Benchmark mode in one pass (false: `--two-pass`); sessions saved before named it `fork` (see session/event-upgrade.ts). */
  onePass?: boolean;
  /** How THM named direct callers (absent in sessions saved before it could be chosen: `use`). */
  caller?: 'use' | 'nearest';
  /** `--no-reach`: THM ran the whole scope (absent: it used the reach index where one was fresh). */
  reach?: false;
  testTimeoutSec?: number;
  /** The interpreter the tests ran with. */
  python?: string;
  sandbox?: RecordedSandbox;
  /** The scratch copy the run worked in (rerun leaves its path out of comparisons). */
  workspace?: string;
  /** The target file as the run found it: resume refuses to build on a file that changed since. */
  originalSha1?: string;
}
