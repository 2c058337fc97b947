import { describe, expect, it } from 'vitest';
import { openFilesLimit, statCpuTicks, statusFieldMb } from './proc';

describe('/proc parsers', () => {
  it('reads kB fields of /proc/<pid>/status as MB', () => {
    const status = 'Name:\tnode\nVmPeak:\t 1000 kB\nVmRSS:\t  204800 kB\nRssAnon:\t  102400 kB\n';
    expect(statusFieldMb(status, 'VmRSS')).toBe(200);
    expect(statusFieldMb(status, 'RssAnon')).toBe(100);
    expect(statusFieldMb(status, 'VmSwap')).toBeNull();
  });

  it('adds utime and stime even when the command name holds spaces and parentheses', () => {
    const stat = '4242 (node (bench) x) S 1 4242 4242 0 -1 4194560 100 0 0 0 1234 56 0 0 20 0 11 0 999 0 0';
    expect(statCpuTicks(stat)).toBe(1290);
    expect(statCpuTicks('garbage')).toBeNull();
  });

  it('reads the soft and hard open-files limits', () => {
    const limits = [
      'Limit                     Soft Limit           Hard Limit           Units',
      'Max open files            1024                 524288               files',
    ].join('\n');
    expect(openFilesLimit(limits)).toEqual({ soft: 1024, hard: 524288 });
    expect(openFilesLimit('Max open files  unlimited  unlimited  files')).toEqual({
      soft: Infinity,
      hard: Infinity,
    });
    expect(openFilesLimit('')).toBeNull();
  });
});
