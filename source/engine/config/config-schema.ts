import * as z from 'zod';
import { SANDBOX_KINDS, STRATEGIES } from '../protocol/settings';

/*
 * The config files' schema, apart from config.ts: zod takes a tenth of a second to load, and most
 * runs have no config file to check (config.ts loads this module only when one exists).
 */

/** USD per million tokens; cachedInput (read from the prompt cache) and cacheWrite cost what input costs when left out. */
const price = z.strictObject({
  input: z.number().min(0),
  output: z.number().min(0),
  cachedInput: z.number().min(0).optional(),
  cacheWrite: z.number().min(0).optional(),
});

/** What a config file may set. Flags override the project file, which overrides the user file. */
export const configSchema = z
  .object({
    provider: z.enum(['openai', 'anthropic', 'scripted']),
    model: z.string().min(1),
    baseUrl: z.string().url(),
    temperature: z.number().min(0).max(2),
    maxTokens: z.number().int().positive(),
    /** The model's context window in tokens, for a model the catalogue does not know (or to use less of it). */
    contextWindow: z.number().int().min(1024),
    timeoutSec: z.number().positive(),
    maxRetries: z.number().int().min(1).max(20),
    /** The longest wait a server's Retry-After gets (seconds); longer ones are cut to it. */
    maxRetryAfterSec: z.number().min(0),
    /** A session's log stops the run when it grows past this many megabytes (default 100). */
    maxSessionMb: z.number().positive(),
    prices: z.record(z.string(), price),
    pregenRounds: z.number().int().positive(),
    rrwAttempts: z.number().int().min(0),
    rrwRounds: z.number().int().positive(),
    testTimeout: z.number().positive(),
    strategy: z.enum(STRATEGIES),
    tddIterations: z.number().int().positive(),
    /** What a session may spend on its model: USD, and tokens in and out. */
    limits: z.object({ maxCost: z.number().positive(), maxTokens: z.number().int().positive() }).partial().strict(),
    sessionsDir: z.string(),
    sandbox: z.enum(SANDBOX_KINDS),
    /** Paths shown read-only to the confined local sandbox (`--read`). Only in the user's own config file. */
    readPaths: z.array(z.string().min(1)),
    image: z.string().min(1),
    dockerHost: z.string().min(1),
    docker: z
      .object({
        memory: z.union([z.string(), z.number().positive()]),
        cpus: z.number().positive(),
        pids: z.number().int().min(16),
        tmp: z.union([z.string(), z.number().positive()]),
        network: z.boolean(),
        mount: z.boolean(),
      })
      .partial()
      .strict(),
  })
  .partial()
  .strict();

export type TenetConfig = z.infer<typeof configSchema>;
