/**
 * CPU time of process trees, from /proc: where a benchmark's cores went (the node, Postgres, a
 * role, the benchmark itself). A tree's time is, over its live processes, their own user and
 * system time plus that of their children already exited and waited for (a Postgres backend that
 * ended is in its postmaster's), so every process of the tree is counted once. Linux only.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

const TICKS_PER_S = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());

interface Proc {
  pid: number;
  ppid: number;
  /** utime + stime + cutime + cstime, in clock ticks. */
  ticks: number;
  cmdline: string;
}

function processes(): Proc[] {
  const out: Proc[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // The command name is in parentheses and may hold spaces: the fields start after the last.
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const ticks = Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]);
      const cmdline = readFileSync(`/proc/${name}/cmdline`, 'utf8').replaceAll('\0', ' ');
      out.push({ pid: Number(name), ppid: Number(f[1]), ticks, cmdline });
    } catch {
      // gone between the listing and the read
    }
  }
  return out;
}

/** The pid of a child of this process whose command line matches, if any. */
export function childPid(match: RegExp): number | undefined {
  return processes().find((p) => p.ppid === process.pid && match.test(p.cmdline))?.pid;
}

/** CPU seconds used so far by each tree (its root's pid); this process's own, as `self`. */
export function cpuSeconds(roots: Record<string, number | undefined>): Record<string, number> {
  const all = processes();
  const children = new Map<number, Proc[]>();
  for (const p of all) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p]);
  const byPid = new Map(all.map((p) => [p.pid, p]));
  const tree = (pid: number): number => {
    const own = byPid.get(pid)?.ticks ?? 0;
    return own + (children.get(pid) ?? []).reduce((n, c) => n + tree(c.pid), 0);
  };
  const out: Record<string, number> = {};
  for (const [name, pid] of Object.entries(roots)) out[name] = pid ? tree(pid) / TICKS_PER_S : 0;
  const usage = process.cpuUsage();
  out.self = (usage.user + usage.system) / 1e6;
  return out;
}

/** What each tree used between two readings, in seconds. */
export function cpuSpent(
  before: Record<string, number>,
  after: Record<string, number>,
): Record<string, number> {
  return Object.fromEntries(
    Object.keys(after).map((k) => [
      k,
      Math.round(((after[k] ?? 0) - (before[k] ?? 0)) * 100) / 100,
    ]),
  );
}

/** Two readings of what trees used (cpuSpent's), added up, in seconds. */
export function cpuSum(
  a: Record<string, number>,
  b: Record<string, number>,
): Record<string, number> {
  return Object.fromEntries(
    Object.keys(a).map((k) => [k, Math.round((a[k]! + (b[k] ?? 0)) * 100) / 100]),
  );
}
