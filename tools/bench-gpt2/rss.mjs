// A tab's memory peak, from outside: a page and its workers (GPT-2's, onnxruntime-web's
// threads) live in one Chromium renderer process, whose VmHWM in /proc/<pid>/status is
// the most resident memory it ever held. Linux only.
//
//   rendererPeak(profile) → bytes: the largest VmHWM among the renderers of the browser
//                           started with --user-data-dir=profile (one page open at a time:
//                           that page's renderer), or null when none is found
//   await quiet(profile)     until no renderer holds more than 300 MB (a closed page's
//                           renderer gone), at most 20 s

import { readFileSync, readdirSync } from 'node:fs';

/** pid → { ppid, cmd } of every process that can be read. */
function processes() {
  const all = new Map();
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const ppid = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]; // after "pid (comm) state"
      // a zygote-forked renderer rewrites its argv as one string: join, then search
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
      all.set(pid, { ppid, cmd });
    } catch {
      // gone meanwhile
    }
  }
  return all;
}

/** A process's VmHWM (peak) or VmRSS (now) in bytes; 0 once it is gone. */
function bytesOf(pid, field) {
  try {
    const kb = readFileSync(`/proc/${pid}/status`, 'utf8').match(new RegExp(`${field}:\\s+(\\d+) kB`));
    return kb ? Number(kb[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** The pids of the renderers under the browser started with `profile`. */
function renderers(profile) {
  const all = processes();
  const root = [...all].find(([, p]) => p.cmd.includes(`--user-data-dir=${profile}`) && !p.cmd.includes('--type='));
  if (!root) return [];
  const under = (pid) => {
    for (let p = all.get(pid); p; p = all.get(p.ppid)) if (p.ppid === root[0]) return true;
    return false;
  };
  return [...all].filter(([pid, p]) => p.cmd.includes('--type=renderer') && under(pid)).map(([pid]) => pid);
}

export function rendererPeak(profile) {
  const peaks = renderers(profile).map((pid) => bytesOf(pid, 'VmHWM'));
  return peaks.length ? Math.max(...peaks) : null;
}

export async function quiet(profile, bytes = 300 * 2 ** 20) {
  for (let waited = 0; waited < 20000; waited += 100) {
    if (renderers(profile).every((pid) => bytesOf(pid, 'VmRSS') <= bytes)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
