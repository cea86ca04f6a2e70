/**
 * Load test of the gateway (npm run load; not part of npm test). Each run prepares a fresh seeded
 * database with its load users, starts the gateway as `npm start` does (server/main.ts, its own
 * processes), signs every client in through the real identity endpoints, and drives concurrent
 * connections with autocannon over list, search, read-by-id and update calls, each SigV4-signed per
 * request. Prints throughput, p50/p95/p99 latency and errors per run, then the goals and verdicts.
 *
 *   npm run load                     PostgreSQL with 2 gateway processes, 50 clients and 200 clients
 *                                    (goal of both: 0 errors, p99 under 200 ms); PGlite with 50 clients
 *                                    beside them (goal: 0 errors); 60 s each
 *   npm run load -- --soak           PostgreSQL, 2 processes, 50 clients for 10 minutes: the memory of
 *                                    each process after warming up and at the end (goal: <= 20 % growth)
 *   --seconds N                      another length for each run (LOAD_SECONDS works too)
 *   --only pg-50,pglite-50,pg-200    some of the runs
 *   --profile DIR                    CPU profiles of the gateway processes (node --cpu-prof), written to DIR
 *                                    when they stop: open them in Chrome's DevTools (Performance panel)
 *   --port N, --pg-port N            the gateway's port (N, N+1...) and the PostgreSQL server's (else free ones)
 *   --per-second                     the answers, p50, p99 and slowest latency of each second of each run
 *   --warm-up N                      seconds of the same calls before each measured run (default 30, 0 for
 *                                    none): a gateway process just started spent up to twice the CPU per call
 *                                    in its first seconds (its code not yet compiled by V8, its caches empty),
 *                                    which a process in service is long past. Printed apart; its errors count
 *                                    against the goal all the same. The measured run goes on on the warm-up's
 *                                    connections: it is the gateway in service, not every client connecting and
 *                                    asking its first list in the same millisecond (1 s of p99 near 1,000 ms at
 *                                    200 clients, then calls in lockstep for a while).
 *
 * The PostgreSQL server is a throw-away one from Debian's packages (scripts/postgres-server.mjs), which the gateway
 * processes reach through its Unix socket, as a gateway beside its database would.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon, { type Client, type Request, type Result } from 'autocannon';
import { migrate, openDb } from '../server/db/adapter.ts';
import { createIdentity } from '../server/identity/index.ts';
import { seedDemo } from '../server/seed/index.ts';
import { DEMO_PASSWORD } from '../server/seed/demo-network.ts';
import type { SigningSession } from '../src/dataProvider/signed-fetch.ts';
import {
  createScratchDatabase,
  freePort,
  signInOver,
  startGatewayProcess,
  type GatewayProcess,
  type GatewayStorage,
} from '../tests/server/support/gateway-process.ts';
import { queryString, signRaw } from '../tests/server/support/raw-signer.ts';
import { findPostgres, startPostgres } from './postgres-server.mjs';

const P99_GOAL_MS = 200;
const MEMORY_GROWTH_GOAL = 0.2;
/** The load generator's own timer, for how late its event loop runs (--per-second). */
const LAG_TICK_MS = 10;
const SOAK_SECONDS = 600;
/** Every client edits service points, which only the operator's admins may do. */
const roles = ['operator_infinity_admin'];

const { values: options } = parseArgs({
  options: {
    soak: { type: 'boolean', default: false },
    seconds: { type: 'string' },
    only: { type: 'string' },
    profile: { type: 'string' },
    port: { type: 'string' },
    'pg-port': { type: 'string' },
    'per-second': { type: 'boolean', default: false },
    'warm-up': { type: 'string' },
  },
});

const seconds = Math.min(
  3600,
  Math.max(1, Number(options.seconds ?? process.env.LOAD_SECONDS ?? (options.soak ? SOAK_SECONDS : 60)) || 60),
);

const warmUpDrive = Math.min(600, Math.max(0, Number(options['warm-up'] ?? 30) || 0));

interface RunPlan {
  name: string;
  title: string;
  storage: 'postgres' | 'pglite';
  workers: number;
  clients: number;
  /** Whether the run is held to the goal of 0 errors and p99 under 200 ms. */
  latencyGoal: boolean;
  soak?: boolean;
}

const plans: RunPlan[] = options.soak
  ? [
      {
        name: 'soak',
        title: 'Soak: PostgreSQL, 2 gateway processes, 50 clients',
        storage: 'postgres',
        workers: 2,
        clients: 50,
        latencyGoal: true,
        soak: true,
      },
    ]
  : [
      {
        name: 'pg-50',
        title: 'PostgreSQL, 2 gateway processes, 50 clients',
        storage: 'postgres',
        workers: 2,
        clients: 50,
        latencyGoal: true,
      },
      {
        name: 'pglite-50',
        title: 'PGlite, 1 gateway process, 50 clients',
        storage: 'pglite',
        workers: 1,
        clients: 50,
        latencyGoal: false,
      },
      {
        name: 'pg-200',
        title: 'PostgreSQL, 2 gateway processes, 200 clients',
        storage: 'postgres',
        workers: 2,
        clients: 200,
        latencyGoal: true,
      },
    ];
const named = options.only ? plans.filter((plan) => options.only!.split(',').includes(plan.name)) : plans;
/** Why no PostgreSQL server can run here (findPostgres installs Debian's when root), or nothing. */
const postgresMissing = (() => {
  try {
    findPostgres();
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
})();
const chosen = postgresMissing ? named.filter((plan) => plan.storage !== 'postgres') : named;

interface LoadContext {
  user: number;
  version?: number;
}

interface Figures {
  plan: RunPlan;
  requests: number;
  throughput: number;
  p50: number;
  p95: number;
  p99: number;
  errors: number;
  errorDetail: string;
  /** The latency of each kind of call: where the tail is. */
  calls: { name: (typeof CALLS)[number]; count: number; p50: number; p99: number }[];
  /** The unmeasured calls before the run (--warm-up), when there were any. */
  warmUp?: Omit<Figures, 'plan' | 'memory' | 'warmUp' | 'cpu'> & { seconds: number };
  /** CPU per answered call of the gateway processes, the PostgreSQL server's (none for PGlite) and the load generator. */
  cpu: CpuPerCall;
  /** Resident memory before the load, after the warm-up (where growth counts from), and at the end. */
  memory?: { pid: number; role: string; startMb: number; warmMb: number; endMb: number }[];
}

/** Resident memory of a process, in MB, from /proc (Linux). */
function residentMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN);
  return kb / 1024;
}

/** Clock ticks per second of /proc's CPU times (USER_HZ: 100 on Linux's usual builds). */
const CLOCK_TICKS = 100;

/** CPU seconds (user and system) a process has used, from /proc; 0 once it is gone. */
function cpuSeconds(pid: number): number {
  try {
    // The fields after the command's closing parenthesis: state is the 3rd field, utime the 14th, stime the 15th.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return 0;
  }
}

/** The PostgreSQL server's processes on the machine (Debian's `postgres`, its postmaster and backends). */
function postgresProcesses(): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres';
      } catch {
        return false;
      }
    })
    .map(Number);
}

/**
 * The CPU each party used from now until the returned function is called, per answered call: a figure that
 * varies far less between runs than the throughput, which the two shared cores bound (issue 32).
 */
function cpuMeter(gatewayPids: number[]) {
  const at = () => ({
    gateway: gatewayPids.reduce((sum, pid) => sum + cpuSeconds(pid), 0),
    postgres: postgresProcesses().reduce((sum, pid) => sum + cpuSeconds(pid), 0),
    generator: (process.cpuUsage().user + process.cpuUsage().system) / 1e6,
  });
  const start = at();
  return (requests: number): CpuPerCall => {
    const end = at();
    const perCall = (key: keyof typeof start) => (1000 * (end[key] - start[key])) / Math.max(requests, 1);
    return { gateway: perCall('gateway'), postgres: perCall('postgres'), generator: perCall('generator') };
  };
}

/** Milliseconds of CPU per answered call. */
interface CpuPerCall {
  gateway: number;
  postgres: number;
  generator: number;
}

/** The gateway processes behind `gateway`: its workers under WORKERS>1, else the process itself. */
function gatewayProcesses(gateway: GatewayProcess): { pid: number; role: string }[] {
  const pid = gateway.child.pid!;
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
  if (!children.length) return [{ pid, role: 'gateway' }];
  return [{ pid, role: 'supervisor' }, ...children.map((child) => ({ pid: Number(child), role: 'gateway' }))];
}

/** A fresh seeded database holding `users` load users, all with the demo password. */
async function prepareDatabase(storage: GatewayStorage, users: number) {
  // The seed is no request: without the requests' statement timeout (its 200-client run stopped on it once).
  const db = await openDb(
    'databaseUrl' in storage
      ? { databaseUrl: storage.databaseUrl, pool: { statementTimeoutMs: 0 } }
      : { dataDir: storage.dataDir },
  );
  try {
    await migrate(db);
    const identity = createIdentity(db, { local: true, log: () => {} });
    await seedDemo(db, identity);
    for (let n = 0; n < users; n += 1) {
      const role = roles[n % roles.length];
      await identity.createUser({
        username: `load.user${n}`,
        email: `load.user${n}@load.locker.test`,
        familyName: role.split('_')[0],
        groups: [role],
        password: DEMO_PASSWORD,
        temporary: false,
      });
    }
    // What autovacuum does to a database in service, done before the run rather than during it: a freshly
    // loaded database has no visibility map (an index-only scan reads the table too), no hint bits (the first
    // read of each row writes its page) and the planner statistics of the empty tables.
    await db.query('VACUUM (ANALYZE)');
  } finally {
    await db.close();
  }
}

async function signInAll(url: string, users: number): Promise<SigningSession[]> {
  const sessions: SigningSession[] = new Array(users);
  const parallel = 4;
  for (let start = 0; start < users; start += parallel) {
    await Promise.all(
      Array.from({ length: Math.min(parallel, users - start) }, async (_, offset) => {
        const n = start + offset;
        sessions[n] = await signInOver(url, `load.user${n}`, url, `load.user${n}@load.locker.test`);
      }),
    );
  }
  return sessions;
}

/** The calls of one client, in turn, by the names the per-call latencies print. */
const CALLS = ['list', 'search', 'read', 'update'] as const;
/** The one call whose answer's body the load generator reads. */
const READ_CALL = CALLS.indexOf('read');

/** The calls of one client, in turn: a list page, a search, a read of its own record, an update of it. */
function clientRequests(host: string, sessions: SigningSession[]) {
  const path = '/webtool/service_points';
  /** Each client edits its own service point, so updates never race each other. */
  const servicePointOf = (context: LoadContext) => 101 + context.user;
  const signed = (
    request: Request,
    context: LoadContext,
    method: string,
    query: Record<string, string>,
    body?: string,
  ) => {
    const headers = signRaw({ method, host, path, query, body }, sessions[context.user]);
    const search = queryString(query);
    return { ...request, method, path: search ? `${path}?${search}` : path, headers: { ...headers, host }, body };
  };
  const searches = ['Coop', 'Kiosk', 'Station', 'Mall', 'Oslo'];
  const orders = ['name', 'city', 'service_point_id'];
  return [
    {
      setupRequest: (request: Request, context: LoadContext) =>
        signed(request, context, 'GET', {
          order_by: orders[context.user % orders.length],
          order_by_dir: context.user % 2 ? 'desc' : 'asc',
          offset: String((context.user % 20) * 15),
          limit: '15',
        }),
    },
    {
      setupRequest: (request: Request, context: LoadContext) =>
        signed(request, context, 'GET', {
          search: searches[context.user % searches.length],
          order_by: 'name',
          order_by_dir: context.user % 2 ? 'desc' : 'asc',
          offset: String((context.user % 5) * 15),
          limit: '15',
        }),
    },
    {
      setupRequest: (request: Request, context: LoadContext) =>
        signed(request, context, 'GET', { service_point_id: String(servicePointOf(context)) }),
      onResponse: (status: number, body: string, context: LoadContext) => {
        if (status === 200) context.version = (JSON.parse(body) as { data: { version: number }[] }).data[0]?.version;
      },
    },
    {
      setupRequest: (request: Request, context: LoadContext) =>
        signed(
          request,
          context,
          'PATCH',
          {},
          JSON.stringify({
            service_point_id: servicePointOf(context),
            version: context.version ?? 0,
            comments: `Load note ${Date.now() % 1000}`,
          }),
        ),
    },
  ];
}

/** autocannon's per-connection request iterator: the context must be set after the client exists. */
interface RequestIteratorInternals {
  /** The call just answered, while autocannon's 'response' event runs (it moves on after it). */
  currentRequestIndex: number;
  initialContext: LoadContext;
  resetContext(): void;
  rebuildRequest(): void;
}

/** The parts of autocannon's client that setupClient reaches into. */
interface ClientInternals {
  requestIterator: RequestIteratorInternals;
  /** The answers awaited on the connection (one: no pipelining); `addBody` appends a chunk to the first's body. */
  pipelinedRequests: { addBody(chunk: Buffer): void };
}

/** What was answered in one part of a drive (the warm-up or the measured run). */
class Answers {
  readonly latencies: number[] = [];
  readonly byCall: number[][] = CALLS.map(() => []);
  readonly bySecond: number[][] = [];
  readonly lagBySecond: number[] = [];
  non2xx = 0;
  status4xx = 0;
  status5xx = 0;
  socketErrors = 0;
  timeouts = 0;

  /** When the part started and ended (performance.now()): its throughput is over the time it lasted. */
  started = performance.now();
  ended = NaN;

  constructor(readonly seconds: number) {}

  figures() {
    const { latencies, byCall } = this;
    latencies.sort((a, b) => a - b);
    for (const values of byCall) values.sort((a, b) => a - b);
    const at = (p: number, values = latencies) =>
      values.length ? values[Math.min(values.length - 1, Math.floor((p / 100) * values.length))] : NaN;
    const errors = this.non2xx + this.socketErrors;
    return {
      seconds: this.seconds,
      calls: CALLS.map((name, index) => ({
        name,
        count: byCall[index].length,
        p50: at(50, byCall[index]),
        p99: at(99, byCall[index]),
      })),
      requests: latencies.length,
      throughput: latencies.length / ((this.ended - this.started) / 1000),
      p50: at(50),
      p95: at(95),
      p99: at(99),
      errors,
      errorDetail: `non-2xx ${this.non2xx} (4xx ${this.status4xx}, 5xx ${this.status5xx}), socket ${this.socketErrors - this.timeouts}, timeouts ${this.timeouts}`,
    };
  }

  printPerSecond(title: string) {
    console.log(`${title}:`);
    console.log(
      this.bySecond
        .map((values, second) => {
          values.sort((a, b) => a - b);
          return (
            `${second}s n=${values.length} p50=${values[Math.floor(values.length / 2)]} p99=${values[Math.floor(values.length * 0.99)]} max=${values[values.length - 1]} ` +
            `load generator late by up to ${(this.lagBySecond[second] ?? 0).toFixed(0)} ms`
          );
        })
        .join('\n'),
    );
  }
}

/**
 * Drives the clients for `warmUp` seconds and then `seconds` measured ones, on the same connections: the
 * measured run is the gateway in service, not 200 clients that all connect and ask their first list in the same
 * millisecond (which the warm-up has behind it). A call counts in the part in which it was answered.
 * `atMeasured` runs as the measured run starts, `atWarmedUp` that many seconds into it.
 */
async function drive(
  url: string,
  sessions: SigningSession[],
  warmUp: number,
  seconds: number,
  atMeasured: () => void,
  atWarmedUp?: { afterSeconds: number; then: () => void },
) {
  const host = new URL(url).host;
  let nextUser = 0;
  const warming = warmUp ? new Answers(warmUp) : undefined;
  const measured = new Answers(seconds);
  let current = warming ?? measured;
  const timers: NodeJS.Timeout[] = [];
  const measure = () => {
    current.ended = performance.now();
    current = measured;
    measured.started = performance.now();
    atMeasured();
    if (atWarmedUp) timers.push(setTimeout(atWarmedUp.then, atWarmedUp.afterSeconds * 1000));
  };
  let lagTimer: NodeJS.Timeout | undefined;
  await new Promise<Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url,
        connections: sessions.length,
        duration: warmUp + seconds,
        timeout: 10,
        initialContext: { user: 0 },
        requests: clientRequests(host, sessions) as unknown as Request[],
        setupClient(client: Client) {
          const { requestIterator: iterator, pipelinedRequests: answers } = client as unknown as ClientInternals;
          iterator.initialContext = { user: nextUser++ % sessions.length };
          iterator.resetContext();
          iterator.rebuildRequest();
          // autocannon decodes every answer's body into a string (10-17 % of the load generator's CPU): only the
          // read's is looked at (its version, for the update), so only its is kept.
          const keepBody = answers.addBody.bind(answers);
          answers.addBody = (chunk) => {
            if (iterator.currentRequestIndex === READ_CALL) keepBody(chunk);
          };
        },
      },
      (error, done) => (error ? reject(error) : resolve(done)),
    );
    if (warming) timers.push(setTimeout(measure, warmUp * 1000));
    else measure();
    if (options['per-second']) console.log(`started at ${new Date().toISOString()}`);
    // How late this process's own timer fires, per second: a late load generator delays every answer alike.
    current.started = performance.now();
    let tick = current.started;
    lagTimer = setInterval(() => {
      const now = performance.now();
      const second = Math.floor((now - current.started) / 1000);
      current.lagBySecond[second] = Math.max(current.lagBySecond[second] ?? 0, now - tick - LAG_TICK_MS);
      tick = now;
    }, LAG_TICK_MS);
    instance.on('response', (client, status, _bytes, milliseconds) => {
      const part = current;
      part.latencies.push(milliseconds);
      if (status < 200 || status > 299) {
        part.non2xx += 1;
        if (status >= 400 && status < 500) part.status4xx += 1;
        if (status >= 500) part.status5xx += 1;
      }
      const call = (client as unknown as { requestIterator: RequestIteratorInternals }).requestIterator
        .currentRequestIndex;
      part.byCall[call]?.push(milliseconds);
      const second = Math.floor((performance.now() - part.started) / 1000);
      (part.bySecond[second] ??= []).push(milliseconds);
    });
    instance.on('reqError', (error: Error) => {
      current.socketErrors += 1;
      if (error.message === 'request timed out') current.timeouts += 1;
    });
  });
  measured.ended = performance.now();
  for (const timer of timers) clearTimeout(timer);
  clearInterval(lagTimer);
  if (options['per-second']) {
    warming?.printPerSecond(`warm-up, ${warmUp} s`);
    measured.printPerSecond(`measured, ${seconds} s`);
  }
  return { warmUp: warming?.figures(), measured: measured.figures() };
}

/** Ports handed out in turn from --port / --pg-port, else free ones. */
function portsFrom(first: string | undefined) {
  let next = first ? Number(first) : undefined;
  return async () => (next === undefined ? freePort() : next++);
}
const gatewayPort = portsFrom(options.port);
const postgresPort = portsFrom(options['pg-port']);

async function run(plan: RunPlan, postgresUrl: () => Promise<string>): Promise<Figures> {
  console.log(`\n== ${plan.title}, ${seconds} s ==`);
  const started = performance.now();
  let storage: GatewayStorage;
  let cleanUp: () => Promise<void>;
  if (plan.storage === 'postgres') {
    const database = await createScratchDatabase(await postgresUrl(), `webtool_load_${plan.name.replace(/\W/g, '_')}`);
    storage = { databaseUrl: database.url };
    cleanUp = database.drop;
  } else {
    const folder = mkdtempSync(path.join(tmpdir(), 'webtool-load-'));
    storage = { dataDir: folder };
    cleanUp = async () => rmSync(folder, { recursive: true, force: true });
  }
  try {
    await prepareDatabase(storage, plan.clients);
    const gateway = await startGatewayProcess({
      ...storage,
      workers: plan.workers,
      port: await gatewayPort(),
      ...(options.profile && { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${path.resolve(options.profile)}`] }),
    });
    try {
      const sessions = await signInAll(gateway.url, plan.clients);
      const processes = gatewayProcesses(gateway);
      console.log(
        `${sessions.length} clients signed in, ${processes.filter((p) => p.role === 'gateway').length} gateway process(es) at ${gateway.url} (ready in ${((performance.now() - started) / 1000).toFixed(0)} s)`,
      );
      const memory = processes.map((p) => ({ ...p, startMb: residentMb(p.pid), warmMb: NaN, endMb: NaN }));
      // Memory right after start grows with caches and the JIT while warming up; growth counts from after that.
      const warmUpSeconds = plan.soak ? Math.min(60, Math.max(1, Math.round(seconds / 10))) : 0;
      let cpuSince: ReturnType<typeof cpuMeter> | undefined;
      const { warmUp, measured: driven } = await drive(
        gateway.url,
        sessions,
        warmUpDrive,
        seconds,
        () => (cpuSince = cpuMeter(processes.filter((p) => p.role === 'gateway').map((p) => p.pid))),
        plan.soak
          ? { afterSeconds: warmUpSeconds, then: () => memory.forEach((p) => (p.warmMb = residentMb(p.pid))) }
          : undefined,
      );
      const figures = { ...driven, cpu: cpuSince!(driven.requests) };
      for (const p of memory) p.endMb = residentMb(p.pid);
      const result: Figures = { plan, ...figures, warmUp, ...(plan.soak && { memory }) };
      print(result, warmUpSeconds);
      return result;
    } finally {
      await gateway.stop();
    }
  } finally {
    await cleanUp();
  }
}

const ms = (value: number) => `${value.toFixed(1)} ms`;
const cpuMs = (value: number) => `${value.toFixed(2)} ms`;

function print(figures: Figures, warmUpSeconds: number) {
  const { warmUp } = figures;
  if (warmUp) {
    console.log(
      `warm-up, ${warmUp.seconds} s (latency not held to the goal): ${warmUp.requests} requests, ${warmUp.throughput.toFixed(1)} req/s, ` +
        `p50 ${ms(warmUp.p50)}, p99 ${ms(warmUp.p99)}, errors ${warmUp.errors} (${warmUp.errorDetail})`,
    );
  }
  console.log(
    [
      `requests: ${figures.requests}, throughput: ${figures.throughput.toFixed(1)} req/s`,
      `latency: p50 ${ms(figures.p50)}, p95 ${ms(figures.p95)}, p99 ${ms(figures.p99)}`,
      `errors: ${figures.errors} (${figures.errorDetail})`,
      `CPU per call: gateway processes ${cpuMs(figures.cpu.gateway)}, PostgreSQL ${cpuMs(figures.cpu.postgres)}, load generator ${cpuMs(figures.cpu.generator)}`,
      `by call: ${figures.calls.map((call) => `${call.name} ${call.count}, p50 ${ms(call.p50)}, p99 ${ms(call.p99)}`).join('; ')}`,
    ].join('\n'),
  );
  for (const p of figures.memory ?? []) {
    const growth = (p.endMb - p.warmMb) / p.warmMb;
    console.log(
      `memory of ${p.role} ${p.pid}: ${p.startMb.toFixed(1)} MB at the start, ${p.warmMb.toFixed(1)} MB after ${warmUpSeconds} s, ` +
        `${p.endMb.toFixed(1)} MB at the end: ` +
        `${(100 * growth).toFixed(1)} % (goal <= ${100 * MEMORY_GROWTH_GOAL} %: ${growth <= MEMORY_GROWTH_GOAL ? 'met' : 'MISSED'})`,
    );
  }
}

function verdicts(all: Figures[]) {
  console.log('\n== Summary ==');
  console.log(['run', 'req/s', 'p50', 'p95', 'p99', 'errors'].join('\t'));
  for (const f of all) {
    const { warmUp } = f;
    if (warmUp) {
      const row = [
        `${f.plan.name} warm-up`,
        warmUp.throughput.toFixed(1),
        ms(warmUp.p50),
        ms(warmUp.p95),
        ms(warmUp.p99),
      ];
      console.log([...row, warmUp.errors].join('\t'));
    }
    console.log([f.plan.name, f.throughput.toFixed(1), ms(f.p50), ms(f.p95), ms(f.p99), f.errors].join('\t'));
  }
  let met = true;
  for (const f of all) {
    // An error while warming up is an error all the same.
    const errorsMet = f.errors + (f.warmUp?.errors ?? 0) === 0;
    const latencyMet = !f.plan.latencyGoal || f.p99 < P99_GOAL_MS;
    const memoryMet = (f.memory ?? []).every((p) => (p.endMb - p.warmMb) / p.warmMb <= MEMORY_GROWTH_GOAL);
    met &&= errorsMet && latencyMet && memoryMet;
    const goal = [
      '0 errors',
      ...(f.plan.latencyGoal ? [`p99 under ${P99_GOAL_MS} ms`] : []),
      ...(f.memory ? [`memory growth <= ${100 * MEMORY_GROWTH_GOAL} %`] : []),
    ].join(', ');
    console.log(`goal of ${f.plan.name} (${goal}): ${errorsMet && latencyMet && memoryMet ? 'met' : 'MISSED'}`);
  }
  return met;
}

async function main() {
  if (postgresMissing) {
    console.error(`\n!!! PostgreSQL unavailable: ${postgresMissing}; the PostgreSQL runs are skipped. !!!\n`);
  }
  if (!named.length) throw new Error(`--only names none of: ${plans.map((plan) => plan.name).join(', ')}`);
  if (!chosen.length) throw new Error('Every run asked for needs PostgreSQL.');
  let postgres: ReturnType<typeof startPostgres> | undefined;
  const postgresUrl = async () => {
    postgres ??= startPostgres({ port: await postgresPort() });
    // The gateway beside its database on one machine reaches it through the server's Unix socket, as such a
    // deployment would: a call's statements cost both sides less there than over loopback TCP (issue 32).
    return (await postgres).socketUrl;
  };
  const stopPostgres = async () => (await postgres)?.remove();
  process.once('SIGINT', () => {
    void stopPostgres().finally(() => process.exit(130));
  });
  try {
    const all: Figures[] = [];
    for (const plan of chosen) all.push(await run(plan, postgresUrl));
    process.exitCode = verdicts(all) ? 0 : 1;
  } finally {
    await stopPostgres();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
