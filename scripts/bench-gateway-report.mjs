// The report of scripts/bench-gateway.mjs: built from the measured rows (buildReport) and printed as text
// (printReport). With the defaults (SQLite, one SolServer) the text is what it always was; --store postgres
// and --instances N add their labels, columns and lines.
import { cpuCount, loadAverage } from "./proc-stats.mjs";

/** Prints the tables and the ratio lines of a bench-gateway report. */
export function printReport(report) {
  const { settings, results, ratios, machine, solStore } = report;
  const instances = settings.instances ?? 1;
  const fleet = instances > 1;
  const postgres = settings.store === "postgres";
  const sol = postgres || fleet ? `SolServer on ${settings.store}, ${instances} instance(s), ` : "";
  console.log(
    `\nGateway benchmark: ${settings.connections} connections, ${settings.duration}s per path (after ${settings.warmup}s warm-up), ` +
      `${settings.rounds} round(s)${settings.rounds > 1 ? ", median row per path" : ""}, upstream delay ${settings.upstreamDelayMs} ms, ` +
      `${sol}${machine.cpus} CPUs, load average ${machine.loadavg?.join(" ") ?? "?"}, Node ${machine.node}\n`,
  );
  // With a fleet, (b)'s cells combine its instances; the headers say how.
  const head = [
    "path",
    "req/s",
    fleet ? "p50 ms (b: merged hist.)" : "p50 ms",
    fleet ? "p99 ms (b: merged hist.)" : "p99 ms",
    "mean ms",
    "2xx",
    "non-2xx",
    "errors",
    "upstream calls/req",
    fleet ? "gateway CPU ms/req (b: all inst.)" : "gateway CPU ms/req",
    ...(postgres ? ["PostgreSQL CPU ms/req"] : []),
    fleet ? "RSS mean MB (b: sum)" : "RSS mean MB",
    ...(fleet ? ["RSS mean MB per instance"] : []),
    fleet ? "RSS peak MB (b: sum)" : "RSS peak MB",
  ];
  const rows = results.map((r) => [
    `(${r.path}) ${r.label}`,
    r.reqPerSec,
    r.p50Ms,
    r.p99Ms,
    r.meanMs,
    r.ok2xx,
    r.non2xx,
    r.errors + r.timeouts,
    r.upstreamCallsPerRequest ?? "-",
    r.gatewayCpuMsPerReq ?? "-",
    ...(postgres ? [r.pgBackendCpuMsPerReq ?? "-"] : []),
    r.rssMeanMb ?? "-",
    ...(fleet ? [r.rssMeanPerInstanceMb ?? r.rssMeanMb ?? "-"] : []),
    r.rssPeakMb ?? "-",
  ]);
  const widths = head.map((h, i) => Math.max(String(h).length, ...rows.map((r) => String(r[i]).length)));
  const line = (cells) => cells.map((cell, i) => String(cell).padEnd(widths[i])).join(" | ");
  console.log(line(head));
  console.log(widths.map((w) => "-".repeat(w)).join("-|-"));
  for (const row of rows) console.log(line(row));
  const b = results.find((r) => r.path === "b");
  if (fleet && b?.perInstance) printFleetNote(b, settings, instances);
  if (postgres) {
    console.log(
      "\nPostgreSQL CPU ms/req: the CPU of the PostgreSQL backends serving SolServer's connections (the " +
        "server's own processes, outside the gateway CPU column), over the requests sent. The run's tables " +
        "are ANALYZEd after each warm-up of (b), as autovacuum keeps them in a deployment.",
    );
  }
  const split = results.filter((r) => r.threadCpuMsPerReq);
  if (split.length > 0) {
    console.log(
      "\ngateway CPU ms per request by thread (main thread | busiest other thread | all other threads):",
    );
    for (const r of split) {
      const t = r.threadCpuMsPerReq;
      const summed = fleet && r.path === "b" ? ` (each summed over the ${instances} instances)` : "";
      console.log(`  (${r.path}) ${r.label}: ${t.main} | ${t.busiestOther} | ${t.rest}${summed}`);
    }
  }
  if (report.rounds) {
    console.log("\nper round (req/s, p99 ms, gateway CPU ms/req):");
    report.rounds.forEach((roundRows, i) => {
      console.log(
        `  round ${i + 1}: ${roundRows.map((r) => `(${r.path}) ${r.reqPerSec} r/s, p99 ${r.p99Ms}, cpu ${r.gatewayCpuMsPerReq ?? "-"}`).join("; ")}`,
      );
    });
  }
  const shared = fleet ? `, which the ${instances} instances share` : "";
  const stored = postgres
    ? ` (counted in the run's PostgreSQL schema${shared}; unfinished: ${solStore.unfinishedTurns})`
    : "";
  console.log(
    `\nSolServer turns stored: ${solStore.storedTurns} of ${solStore.requestsSent} requests sent (warm-up, measured and checks)${stored}`,
  );
  // What the fleet pays in memory is every instance's RSS, so the RSS ratios use the sum.
  const rssBasis = fleet ? ` (b: sum over ${instances} instances)` : "";
  console.log(
    `ratios: throughput b/a ${ratios.throughput_b_over_a}, b/c ${ratios.throughput_b_over_c}; ` +
      `p99 b/a ${ratios.p99_b_over_a}, b/c ${ratios.p99_b_over_c}; gateway CPU per request b/c ${ratios.cpu_per_request_b_over_c}; ` +
      `RSS mean b/c ${ratios.rss_mean_b_over_c}${rssBasis}`,
  );
  if (ratios.cpu_per_request_b_over_d !== undefined) {
    console.log(`gateway CPU per request b/d ${ratios.cpu_per_request_b_over_d} (d: the bare proxy)`);
  }
  if (ratios.cpu_per_request_with_pg_b_over_c !== undefined) {
    console.log(
      `gateway CPU per request b/c with PostgreSQL's backends added to (b): ${ratios.cpu_per_request_with_pg_b_over_c}`,
    );
  }
  if (report.perRoundRatios) {
    const r = report.perRoundRatios;
    console.log(
      `median of per-round ratios: throughput b/c ${r.throughput_b_over_c}, p99 b/c ${r.p99_b_over_c}, ` +
        `gateway CPU per request b/c ${r.cpu_per_request_b_over_c}, RSS mean b/c ${r.rss_mean_b_over_c}${rssBasis}`,
    );
  }
  // Issue 25's goals against Portkey, on the per-round medians when there are rounds.
  const g = report.perRoundRatios ?? ratios;
  const verdict = (value, goal) =>
    value === null ? "n/a" : `${value} (goal <= ${goal}: ${value <= goal ? "met" : "not met"})`;
  const cpuBasis = postgres ? " (SolServer's processes; PostgreSQL's not included)" : "";
  console.log(
    `goals b/c: CPU per request ${verdict(g.cpu_per_request_b_over_c, 0.333)}${cpuBasis}; p99 ${verdict(g.p99_b_over_c, 0.5)}; ` +
      `RSS ${verdict(g.rss_mean_b_over_c, 1)}${rssBasis}`,
  );
}

/** How (b)'s row combines its instances, and each instance's own figures. */
function printFleetNote(b, settings, instances) {
  const split = b.perInstance.map((p) => p.connections).join(" + ");
  console.log(
    `\n(b) runs ${instances} SolServer instances on one PostgreSQL schema, ${settings.connections} connections ` +
      `split ${split}, one autocannon run per instance in parallel. Its req/s is the sum; p50 and p99 come ` +
      "from the runs' latency histograms merged (every request of the fleet); gateway CPU ms/req is every " +
      "instance's CPU over all requests; RSS mean and peak are sums over the instances (what the fleet " +
      "holds; the peak, a sum of each instance's own peak), RSS mean per instance their mean.",
  );
  b.perInstance.forEach((p, k) => {
    console.log(
      `  instance ${k + 1}: ${p.connections} connections, ${p.reqPerSec} req/s, p50 ${p.p50Ms} ms, p99 ${p.p99Ms} ms, ` +
        `gateway CPU ${p.gatewayCpuMsPerReq ?? "-"} ms/req, RSS mean ${p.rssMeanMb ?? "-"} MB`,
    );
  });
}

/**
 * The report of one benchmark run: the median row of each path over the rounds, the ratios of (b) to
 * the others, and the medians of each round's own b/c ratios. `pgUrl` is already redacted.
 */
export function buildReport({
  opts,
  store,
  instances,
  pgUrl,
  prompt,
  results,
  rounds,
  storedTurns,
  unfinishedTurns,
  requestsSent,
}) {
  const [a, b, c, d] = results;
  return {
    machine: { cpus: cpuCount(), node: process.version, platform: process.platform, loadavg: loadAverage() },
    settings: {
      ...opts,
      store,
      instances,
      ...(store === "postgres" ? { pgUrl } : {}),
      prompt,
      solThreads: "one thread per connection, a unique idempotency key per request",
    },
    results,
    rounds: opts.rounds > 1 ? rounds : undefined,
    // Every request sent to SolServer (warm-ups, measured runs and one check per instance) must be a stored turn.
    // With PostgreSQL, also the turns still queued or sending at the end (SQL on the run's schema): 0.
    solStore: { storedTurns, requestsSent, ...(unfinishedTurns === undefined ? {} : { unfinishedTurns }) },
    ratios: {
      throughput_b_over_a: round(b.reqPerSec / a.reqPerSec, 3),
      throughput_b_over_c: round(b.reqPerSec / c.reqPerSec, 3),
      p99_b_over_a: round(b.p99Ms / a.p99Ms, 3),
      p99_b_over_c: round(b.p99Ms / c.p99Ms, 3),
      ...(d?.gatewayCpuMsPerReq && b.gatewayCpuMsPerReq
        ? { cpu_per_request_b_over_d: round(b.gatewayCpuMsPerReq / d.gatewayCpuMsPerReq, 3) }
        : {}),
      cpu_per_request_b_over_c:
        b.gatewayCpuMsPerReq && c.gatewayCpuMsPerReq
          ? round(b.gatewayCpuMsPerReq / c.gatewayCpuMsPerReq, 3)
          : null,
      // With several instances (b)'s rssMeanMb is their sum: the memory the fleet holds.
      rss_mean_b_over_c: b.rssMeanMb && c.rssMeanMb ? round(b.rssMeanMb / c.rssMeanMb, 3) : null,
      ...(b.pgBackendCpuMsPerReq != null && b.gatewayCpuMsPerReq && c.gatewayCpuMsPerReq
        ? {
            cpu_per_request_with_pg_b_over_c: round(
              (b.gatewayCpuMsPerReq + b.pgBackendCpuMsPerReq) / c.gatewayCpuMsPerReq,
              3,
            ),
          }
        : {}),
    },
    // Medians of each round's own b/c ratios: the two paths of one round ran minutes apart at most, so
    // these track a machine whose speed drifts better than ratios of medians taken across rounds.
    perRoundRatios:
      opts.rounds > 1
        ? {
            throughput_b_over_c: round(medianOf(rounds.map((r) => r[1].reqPerSec / r[2].reqPerSec)), 3),
            p99_b_over_c: round(medianOf(rounds.map((r) => r[1].p99Ms / r[2].p99Ms)), 3),
            cpu_per_request_b_over_c: rounds.every((r) => r[1].gatewayCpuMsPerReq && r[2].gatewayCpuMsPerReq)
              ? round(medianOf(rounds.map((r) => r[1].gatewayCpuMsPerReq / r[2].gatewayCpuMsPerReq)), 3)
              : null,
            rss_mean_b_over_c: rounds.every((r) => r[1].rssMeanMb && r[2].rssMeanMb)
              ? round(medianOf(rounds.map((r) => r[1].rssMeanMb / r[2].rssMeanMb)), 3)
              : null,
          }
        : undefined,
  };
}

/** The middle value (the mean of the two middle ones for an even count). */
function medianOf(values) {
  const sorted = [...values].sort((x, y) => x - y);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** The row with the median req/s of a path's rounds (a real measurement, not a blend). */
export function medianRow(rows) {
  const sorted = [...rows].sort((x, y) => x.reqPerSec - y.reqPerSec);
  return sorted[Math.floor((sorted.length - 1) / 2)];
}

export function round(value, digits) {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
