import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onShutdown } from '../lifecycle';

/**
 * A seccomp filter that refuses `socket(AF_UNIX, …)`, for confined processes given the network
 * (`--network`). Without a network namespace of their own they share this machine's abstract Unix
 * socket namespace, where services listen that no mount can cover (containerd's shims, D-Bus,
 * X11): a process that cannot make a Unix socket cannot connect to any. `socketpair` still works
 * (a pair within the process), as do inet sockets. Claude Code's sandbox blocks Unix sockets the
 * same way. Without `--network` each sandbox has its own network namespace, and no filter is needed.
 *
 * The program is classic BPF over `struct seccomp_data` (nr at 0, arch at 4, args at 16), handed
 * to bwrap's `--seccomp FD`. Syscalls of another ABI (32-bit on x86_64, x32) kill the process:
 * through them `socketcall` would pass the filter by.
 */

const LD_W_ABS = 0x20;
const JEQ_K = 0x15;
const JGE_K = 0x35;
const RET_K = 0x06;
const SECCOMP_RET_ALLOW = 0x7fff0000;
const SECCOMP_RET_ERRNO = 0x00050000;
const SECCOMP_RET_KILL_PROCESS = 0x80000000;
const EPERM = 1;
const AF_UNIX = 1;
const X32_SYSCALL_BIT = 0x40000000;

/** The architecture's audit number and its `socket` syscall, where tenet knows them. */
const ABI: Partial<Record<NodeJS.Architecture, { arch: number; socket: number }>> = {
  x64: { arch: 0xc000003e, socket: 41 },
  arm64: { arch: 0xc00000b7, socket: 198 },
};

type Instruction = [code: number, jt: number, jf: number, k: number];

/** The filter for this machine's architecture, or undefined where tenet does not know its syscall numbers. */
export function unixSocketFilter(arch: NodeJS.Architecture = process.arch): Buffer | undefined {
  const abi = ABI[arch];
  if (!abi) return undefined;
  const program: Instruction[] = [
    /* 0 */ [LD_W_ABS, 0, 0, 4],
    /* 1 */ [JEQ_K, 0, 7, abi.arch], // another ABI → 9
    /* 2 */ [LD_W_ABS, 0, 0, 0],
    /* 3 */ [JGE_K, 5, 0, X32_SYSCALL_BIT], // x32 → 9
    /* 4 */ [JEQ_K, 0, 3, abi.socket], // not socket() → 8
    /* 5 */ [LD_W_ABS, 0, 0, 16],
    /* 6 */ [JEQ_K, 0, 1, AF_UNIX], // not AF_UNIX → 8
    /* 7 */ [RET_K, 0, 0, SECCOMP_RET_ERRNO | EPERM],
    /* 8 */ [RET_K, 0, 0, SECCOMP_RET_ALLOW],
    /* 9 */ [RET_K, 0, 0, SECCOMP_RET_KILL_PROCESS],
  ];
  const bytes = Buffer.alloc(program.length * 8);
  program.forEach(([code, jt, jf, k], index) => {
    bytes.writeUInt16LE(code, index * 8);
    bytes.writeUInt8(jt, index * 8 + 2);
    bytes.writeUInt8(jf, index * 8 + 3);
    bytes.writeUInt32LE(k >>> 0, index * 8 + 4);
  });
  return bytes;
}

let written: string | undefined;

/** The filter's file, written once per tenet process (bwrap reads it from a descriptor the shell opens). */
export function unixSocketFilterFile(): string | undefined {
  if (written) return written;
  const filter = unixSocketFilter();
  if (!filter) return undefined;
  const folder = mkdtempSync(join(tmpdir(), 'tenet-seccomp-'));
  onShutdown(() => rmSync(folder, { recursive: true, force: true }));
  written = join(folder, 'no-unix-sockets.bpf');
  writeFileSync(written, filter, { mode: 0o600 });
  return written;
}
