// Process and thread readings from /proc for the gateway benchmark (Linux; NaN or null elsewhere).
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";

/** Kernel clock ticks per second, read once. */
let clockTicks;

function ticksToMs(stat) {
  clockTicks ??= Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
  // Fields after the parenthesised command name; utime and stime are fields 14 and 15.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / clockTicks;
}

/** User + system CPU time of a process in ms. */
export function readCpuMs(pid) {
  try {
    return ticksToMs(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return Number.NaN;
  }
}

/** CPU time in ms of each thread of a process, by thread id (empty when /proc is not there). */
export function readThreadCpuMs(pid) {
  const out = new Map();
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      try {
        out.set(Number(tid), ticksToMs(readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8")));
      } catch {
        // the thread ended between the listing and the read
      }
    }
  } catch {
    // no /proc
  }
  return out;
}

/**
 * How a process's CPU between two readings splits over its threads: the main thread (its id is the
 * process id), the busiest other thread (in SolServer, the store thread) and all the rest (V8's GC
 * helpers, libuv's pool, SQLite's WAL checkpointer). Null without thread readings.
 */
export function threadSplit(pid, before, after) {
  if (after.size === 0) return null;
  let main = 0;
  const others = [];
  for (const [tid, ms] of after) {
    const used = ms - (before.get(tid) ?? 0);
    if (tid === pid) main = used;
    else others.push(used);
  }
  others.sort((x, y) => y - x);
  const busiest = others[0] ?? 0;
  return { mainMs: main, busiestOtherMs: busiest, restMs: others.slice(1).reduce((s, v) => s + v, 0) };
}

/** Resident set size of a process in KiB, or null. */
export function readRssKib(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
    return match ? Number(match[1]) : null;
  } catch {
    try {
      return (
        Number(execFileSync("ps", ["-o", "rss=", "-p", String(pid)], { encoding: "utf8" }).trim()) || null
      );
    } catch {
      return null;
    }
  }
}

/** Samples the RSS (KiB) of a process every 200 ms until stopped. */
export function sampleRss(pid) {
  const samples = [];
  const read = () => {
    const kib = readRssKib(pid);
    if (kib !== null) samples.push(kib);
  };
  read();
  const timer = setInterval(read, 200);
  return {
    stop() {
      clearInterval(timer);
      read();
      if (samples.length === 0) return null;
      return { mean: samples.reduce((s, v) => s + v, 0) / samples.length, peak: Math.max(...samples) };
    },
  };
}

/** Number of CPUs the kernel lists, or null. */
export function cpuCount() {
  try {
    return readFileSync("/proc/cpuinfo", "utf8").match(/^processor\s*:/gm)?.length ?? null;
  } catch {
    return null;
  }
}

/** The 1, 5 and 15 minute load averages, or null. */
export function loadAverage() {
  try {
    return readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).map(Number);
  } catch {
    return null;
  }
}
