// Readers of Linux /proc for the bench: a process's memory (VmRSS, RssAnon), its CPU time and the open-files limit.
// The parsers are pure (unit-tested); the readers return null where /proc is missing (not Linux) or the process is gone.
import { readFileSync } from 'node:fs';

/** A `Key:   1234 kB` field of /proc/<pid>/status in MB, or null when absent. */
export function statusFieldMb(status: string, key: string): number | null {
  const match = new RegExp(`^${key}:\\s+(\\d+)\\s+kB$`, 'm').exec(status);
  return match ? Number(match[1]) / 1024 : null;
}

/** utime + stime (clock ticks) from /proc/<pid>/stat; the command name may hold spaces and parentheses. */
export function statCpuTicks(stat: string): number | null {
  const end = stat.lastIndexOf(')');
  if (end < 0) return null;
  // After "pid (comm) " come fields 3.. of proc(5); utime and stime are fields 14 and 15.
  const fields = stat
    .slice(end + 2)
    .trim()
    .split(/\s+/);
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  return Number.isFinite(utime) && Number.isFinite(stime) ? utime + stime : null;
}

/** The soft and hard "Max open files" of /proc/<pid>/limits; `unlimited` is Infinity. */
export function openFilesLimit(limits: string): { soft: number; hard: number } | null {
  const match = /^Max open files\s+(\S+)\s+(\S+)/m.exec(limits);
  if (!match) return null;
  const value = (v: string | undefined) => (v === 'unlimited' ? Infinity : Number(v));
  return { soft: value(match[1]), hard: value(match[2]) };
}

function readOrNull(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

export interface MemorySample {
  t: number;
  rssMb: number;
  anonMb: number | null;
}

/** RSS (and its anonymous part, where the JS heap lives) of `pid` now, or null. */
export function readMemory(pid: number): MemorySample | null {
  const status = readOrNull(`/proc/${pid}/status`);
  const rssMb = status === null ? null : statusFieldMb(status, 'VmRSS');
  if (status === null || rssMb === null) return null;
  return { t: Date.now(), rssMb, anonMb: statusFieldMb(status, 'RssAnon') };
}

/** CPU ticks used so far by `pid` (divide by the clock tick rate, 100/s on Linux, for seconds), or null. */
export function readCpuTicks(pid: number): number | null {
  const stat = readOrNull(`/proc/${pid}/stat`);
  return stat === null ? null : statCpuTicks(stat);
}

/** This process's open-files limit (children inherit it), or null off Linux. */
export function ownOpenFilesLimit(): { soft: number; hard: number } | null {
  const limits = readOrNull('/proc/self/limits');
  return limits === null ? null : openFilesLimit(limits);
}
