/** What `tenet sessions` says of a session (and what `--status` filters on). */
export const SESSION_STATUSES = [
  'running',
  'passed',
  'failed',
  'unverified',
  'interrupted',
  'error',
  'damaged',
] as const;
export type SessionStatus = (typeof SESSION_STATUSES)[number];
