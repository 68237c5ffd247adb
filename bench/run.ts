import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { parseArgs } from 'node:util';
import { measureExtras } from './extras.js';
import { measureWebhooks, webhookLines as describeWebhooks } from './webhooks.js';
import { runLoad, type LoadResult } from './processes.js';
import { median } from './stats.js';
import { buildBase } from './base-build.js';
import { VARIANTS, freshDatabase, type Variant } from './variants.js';

/**
 * `npm run bench [-- --quick] [-- --only name,name] [-- --no-extras] [-- --no-webhooks] [-- --base <git ref>]`
 * (`--webhook-count N`, `--webhook-dialects sqlite,postgres`; `--only none --webhooks` runs the webhooks alone): every variant in
 * alternating rounds on fresh seeded databases, load from a separate process; prints a markdown table with ratios and
 * writes JSON to bench/results/. `--base` adds gatehouse built from that revision (bench/base-build.ts).
 * `--interleave K` runs the chosen variants side by side instead: in each round all of them serve at once, and the
 * load goes to each in turn K times (seconds/K each, the order reversed every other time), so a drift of the
 * machine's speed lands on all of them alike — for ratios of a few percent on a machine others share. Every load
 * starts with the machine's dirty pages written out.
 */
const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    only: { type: 'string' },
    rounds: { type: 'string' },
    seconds: { type: 'string' },
    connections: { type: 'string', default: '50' },
    checkins: { type: 'string' },
    extras: { type: 'boolean' },
    'no-extras': { type: 'boolean' },
    soak: { type: 'string' },
    base: { type: 'string' },
    webhooks: { type: 'boolean' },
    'no-webhooks': { type: 'boolean' },
    'webhook-count': { type: 'string' },
    'webhook-dialects': { type: 'string' },
    interleave: { type: 'string' },
  },
});
const quick = values.quick === true;
const rounds = Number(values.rounds ?? (quick ? 1 : 3));
const seconds = Number(values.seconds ?? (quick ? 3 : 10));
const checkins = Number(values.checkins ?? (quick ? 60_000 : 200_000));
const connections = values.connections ?? '50';
const base = values.base === undefined ? undefined : buildBase(values.base);
process.once('exit', () => base?.remove());
// Each build of the base runs right after the same variant of this build: the machine's speed drifts over minutes,
// and their ratio is the one measured.
const candidates = VARIANTS.flatMap((variant) => [
  variant,
  ...(base?.variants.filter((other) => other.name === `${variant.name}@base`) ?? []),
]);
const variants =
  values.only === undefined ? candidates : candidates.filter((v) => values.only?.split(',').includes(v.name));

interface Sample extends LoadResult {
  rssPeak: number;
  rssEnd: number;
}

/**
 * Before each load: the machine's dirty pages written out, so that the write-back of what came before (the seed, or
 * another server's turn under --interleave: its log and checkpoints, about 5 KiB a validation) does not land in this
 * load's time.
 */
function flushDirtyPages(): void {
  execFileSync('sync');
}

/** A variant serving on its fresh seeded database, warmed up; each load goes on from the check-ins the last used. */
async function serve(variant: Variant) {
  const database = await freshDatabase(variant.dialect, checkins, 0, variant.skewed === true);
  const server = await variant.start(database).catch(async (error: unknown) => {
    await database.drop();
    throw error;
  });
  const wrap = variant.stateless === true ? 'wrap' : '';
  const mode = variant.load ?? 'validate';
  let used = 0;
  const load = async (forSeconds: number) => {
    flushDirtyPages();
    const result = await runLoad([
      server.url,
      database.fixtures,
      connections,
      String(forSeconds),
      '0',
      String(used),
      wrap,
      mode,
    ]);
    used += result.used;
    return result;
  };
  const stop = async () => {
    await server.stop();
    await database.drop();
  };
  try {
    // A short warm-up on check-ins of its own; the measured loads use the next ones.
    await load(1);
  } catch (error) {
    await stop();
    throw error;
  }
  return { load, stop, rss: () => server.rss };
}

async function measure(variant: Variant): Promise<Sample> {
  const serving = await serve(variant);
  try {
    const result = await serving.load(seconds);
    return { ...result, rssPeak: Math.max(...serving.rss()), rssEnd: serving.rss().at(-1) ?? 0 };
  } finally {
    await serving.stop();
  }
}

/** Loads of one server taken in turns, as one sample: its requests over their time, the median of their latencies. */
function merged(loads: LoadResult[], rss: number[]): Sample {
  const sum = (of: (load: LoadResult) => number) => loads.reduce((total, load) => total + of(load), 0);
  const requests = sum((load) => load.requests);
  const busySeconds = sum((load) => (load.end - load.start) / 1000);
  return {
    requests,
    rps: busySeconds > 0 ? requests / busySeconds : 0,
    p50: median(loads.map((load) => load.p50)),
    mean: median(loads.map((load) => load.mean)),
    p90: median(loads.map((load) => load.p90)),
    p99: median(loads.map((load) => load.p99)),
    errors: sum((load) => load.errors),
    non2xx: sum((load) => load.non2xx),
    used: sum((load) => load.used),
    start: loads[0]?.start ?? 0,
    end: loads.at(-1)?.end ?? 0,
    rssPeak: Math.max(...rss),
    rssEnd: rss.at(-1) ?? 0,
  };
}

/** One round of --interleave: every variant serving at once, the load on each in turn, `slices` times. */
async function measureInterleaved(order: Variant[], slices: number): Promise<Sample[]> {
  const serving: Awaited<ReturnType<typeof serve>>[] = [];
  try {
    for (const variant of order) serving.push(await serve(variant));
    const loads = order.map(() => [] as LoadResult[]);
    for (let turn = 0; turn < slices; turn += 1) {
      const indexes = order.map((_, i) => i);
      for (const i of turn % 2 === 0 ? indexes : indexes.reverse()) {
        loads[i]?.push(await (serving[i] as (typeof serving)[number]).load(seconds / slices));
      }
    }
    return order.map((_, i) => merged(loads[i] ?? [], serving[i]?.rss() ?? []));
  } finally {
    for (const running of serving) await running.stop();
  }
}

const samples = new Map<string, Sample[]>(variants.map((v) => [v.name, []]));
const slices = values.interleave === undefined ? undefined : Number(values.interleave);
if (slices !== undefined && !(Number.isInteger(slices) && slices >= 1))
  throw new Error(`--interleave takes a whole number of turns from 1 up, not ${values.interleave}`);
const reported = (round: number, variant: Variant, sample: Sample) => {
  samples.get(variant.name)?.push(sample);
  process.stderr.write(
    `round ${round + 1}/${rounds}: ${variant.name}: ${Math.round(sample.rps)} req/s, p99 ${sample.p99} ms, ${sample.errors + sample.non2xx} bad\n`,
  );
};
for (let round = 0; round < rounds; round += 1) {
  // Alternate the order so no variant always runs first (or last) on a warming machine.
  const order = round % 2 === 0 ? variants : [...variants].reverse();
  if (slices !== undefined && variants.length > 0) {
    const measured = await measureInterleaved(order, slices);
    order.forEach((variant, i) => reported(round, variant, measured[i] as Sample));
    continue;
  }
  for (const variant of order) reported(round, variant, await measure(variant));
}

const summary = variants.map((variant) => {
  const runs = samples.get(variant.name) ?? [];
  return {
    variant: variant.name,
    description: variant.description,
    rps: median(runs.map((s) => s.rps)),
    p50: median(runs.map((s) => s.p50)),
    p90: median(runs.map((s) => s.p90)),
    p99: median(runs.map((s) => s.p99)),
    errors: runs.reduce((sum, s) => sum + s.errors + s.non2xx, 0),
    rssPeakMiB: Math.round(median(runs.map((s) => s.rssPeak))),
    runs,
  };
});
const rpsOf = (name: string) => summary.find((row) => row.variant === name)?.rps;
/**
 * A ratio of the two variants' medians, and the median of the per-round ratios: each round runs both within a
 * minute or two of each other, so pairing them cancels most of a shared machine's drift between rounds.
 */
const ratio = (a: string, b: string) => {
  const [x, y] = [rpsOf(a), rpsOf(b)];
  if (x === undefined || y === undefined || y === 0) return undefined;
  const [runsA, runsB] = [samples.get(a) ?? [], samples.get(b) ?? []];
  const paired = runsA.map((run, i) => run.rps / (runsB[i]?.rps ?? Number.NaN)).filter(Number.isFinite);
  return {
    ofMedians: x / y,
    pairedMedian: median(paired),
    pairedMin: Math.min(...paired),
    pairedMax: Math.max(...paired),
  };
};
const ratios = {
  'gatehouse-sqlite-create / gatehouse-sqlite (visits: creation / validation, goal ≥ 0.8)': ratio(
    'gatehouse-sqlite-create',
    'gatehouse-sqlite',
  ),
  'gatehouse-pg-create / gatehouse-pg (visits: creation / validation, goal ≥ 0.8)': ratio(
    'gatehouse-pg-create',
    'gatehouse-pg',
  ),
  'gatehouse-sqlite-create / raw-sqlite-normal-create (check-in creation vs the fair baseline)': ratio(
    'gatehouse-sqlite-create',
    'raw-sqlite-normal-create',
  ),
  'gatehouse-pg-create / raw-pg-create (check-in creation vs the fair baseline)': ratio(
    'gatehouse-pg-create',
    'raw-pg-create',
  ),
  'gatehouse-sqlite / raw-sqlite-normal (goal ≥ 1.5)': ratio('gatehouse-sqlite', 'raw-sqlite-normal'),
  'gatehouse-sqlite / raw-sqlite-full': ratio('gatehouse-sqlite', 'raw-sqlite-full'),
  'gatehouse-pg / raw-pg (goal ≥ 1.2)': ratio('gatehouse-pg', 'raw-pg'),
  'gatehouse-sqlite / http-floor': ratio('gatehouse-sqlite', 'http-floor'),
  'gatehouse-sqlite / gatehouse-sqlite@base (goal ≥ 0.95)': ratio(
    'gatehouse-sqlite',
    'gatehouse-sqlite@base',
  ),
  'gatehouse-pg / gatehouse-pg@base (goal ≥ 0.95)': ratio('gatehouse-pg', 'gatehouse-pg@base'),
  'gatehouse-sqlite-create / gatehouse-sqlite-create@base': ratio(
    'gatehouse-sqlite-create',
    'gatehouse-sqlite-create@base',
  ),
  'gatehouse-pg-create / gatehouse-pg-create@base': ratio('gatehouse-pg-create', 'gatehouse-pg-create@base'),
  'gatehouse-sqlite-plans / gatehouse-sqlite-skewed (validation with plans and payout rules, goal ≥ 0.9)':
    ratio('gatehouse-sqlite-plans', 'gatehouse-sqlite-skewed'),
  'gatehouse-pg-plans / gatehouse-pg-skewed (goal ≥ 0.9)': ratio('gatehouse-pg-plans', 'gatehouse-pg-skewed'),
  'gatehouse-sqlite-create-plans / gatehouse-sqlite-create-skewed (check-in creation with plans, goal ≥ 0.9)':
    ratio('gatehouse-sqlite-create-plans', 'gatehouse-sqlite-create-skewed'),
  'gatehouse-pg-create-plans / gatehouse-pg-create-skewed (goal ≥ 0.9)': ratio(
    'gatehouse-pg-create-plans',
    'gatehouse-pg-create-skewed',
  ),
};

const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
// The fixed-rate, store-size and soak measurements: part of a full run, skipped by --quick.
const extras =
  values['no-extras'] !== true && (values.extras ?? !quick)
    ? await measureExtras({ seconds, rounds, soakRequests: Number(values.soak ?? 1_000_000) })
    : undefined;
const extraLines =
  extras === undefined
    ? []
    : [
        '',
        `At a fixed offered load of ${extras.fixedRate.rate} req/s (autocannon overallRate, 50 connections; it arrives as one burst per second), medians of ${extras.fixedRate.rounds} round(s):`,
        '',
        '| server at the fixed rate | p50 ms | mean ms | p90 ms | p99 ms | errors |',
        '|---|---|---|---|---|---|',
        ...extras.fixedRate.cases.map(
          (c) => `| ${c.label} | ${c.p50} | ${c.mean.toFixed(2)} | ${c.p90} | ${c.p99} | ${c.errors} |`,
        ),
        '',
        `Goal p99 < 5 ms on SQLite: gatehouse ${extras.storeSize.p99At10k} ms, the no-database floor ${extras.fixedRate.floorP99} ms under the same load.`,
        `Store size, 10k → 2M check-ins (goal within 10%): p50 ${extras.storeSize.p50At10k} → ${extras.storeSize.p50At2M} ms (×${extras.storeSize.p50Ratio.toFixed(2)}, whole ms), mean ${extras.storeSize.meanAt10k.toFixed(2)} → ${extras.storeSize.meanAt2M.toFixed(2)} ms (×${extras.storeSize.meanRatio.toFixed(2)}), p99 ${extras.storeSize.p99At10k} → ${extras.storeSize.p99At2M} ms (×${extras.storeSize.p99Ratio.toFixed(2)}).`,
        ...(extras.soak === undefined
          ? []
          : [
              `Soak: ${extras.soak.requests} requests, RSS ${Math.round(extras.soak.rssStart)} MiB after the first 10 s, peak ${Math.round(extras.soak.rssPeak)} MiB, final ${Math.round(extras.soak.rssEnd)} MiB (goal < 150 MiB and flat).`,
            ]),
      ];

// Webhook delivery at production load: both dialects, beside the base build with --base. Full runs; --webhooks.
const webhooks =
  values['no-webhooks'] !== true && (values.webhooks ?? !quick)
    ? await measureWebhooks({
        seconds,
        rounds,
        count: Number(values['webhook-count'] ?? (quick ? 5_000 : 20_000)),
        dialects: (values['webhook-dialects'] ?? 'sqlite,postgres').split(',') as ('sqlite' | 'postgres')[],
        ...(base === undefined
          ? {}
          : { base: { name: `base ${values.base ?? ''}`, cli: base.cli, toSchema: base.toBaseSchema } }),
      })
    : undefined;
const webhookLines = webhooks === undefined ? [] : describeWebhooks(webhooks);

const lines = [
  `Machine: ${machine}. ${rounds} round(s) × ${seconds} s${slices === undefined ? '' : `, side by side in ${slices} turns each`}, ${connections} connections, medians.`,
  '',
  '| variant | req/s | p50 ms | p90 ms | p99 ms | errors | peak RSS MiB |',
  '|---|---|---|---|---|---|---|',
  ...summary.map(
    (r) =>
      `| ${r.variant} | ${Math.round(r.rps)} | ${r.p50} | ${r.p90} | ${r.p99} | ${r.errors} | ${r.rssPeakMiB} |`,
  ),
  '',
  '| ratio (req/s) | of the medians | per round: median (range) |',
  '|---|---|---|',
  ...Object.entries(ratios).map(([name, value]) =>
    value === undefined
      ? `| ${name} | — | — |`
      : `| ${name} | ${value.ofMedians.toFixed(2)} | ${value.pairedMedian.toFixed(2)} (${value.pairedMin.toFixed(2)}–${value.pairedMax.toFixed(2)}) |`,
  ),
  ...extraLines,
  ...webhookLines,
];
process.stdout.write(`${lines.join('\n')}\n`);
mkdirSync(new URL('../../bench/results/', import.meta.url), { recursive: true });
const stamp = new Date().toISOString().replace(/[:.]/g, '-');
writeFileSync(
  new URL(`../../bench/results/${stamp}${quick ? '-quick' : ''}.json`, import.meta.url),
  JSON.stringify(
    {
      machine,
      rounds,
      seconds,
      interleave: slices,
      connections,
      checkins,
      summary,
      ratios,
      extras,
      webhooks,
    },
    null,
    2,
  ),
);
