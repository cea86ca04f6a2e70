import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import pg from 'pg';
import { signRequest, type GatewayRequest, type SigningSession } from '../../../src/dataProvider/signed-fetch.ts';
import { DEMO_PASSWORD, demoUsers } from '../../../server/seed/demo-network.ts';
import { cognitoClient } from './cognito-client.ts';

/** A loopback port nobody listens on now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/** A new, empty database on the server of `adminUrl` (which may CREATE DATABASE); `drop()` removes it. */
export async function createScratchDatabase(adminUrl: string, prefix: string) {
  const name = `${prefix}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

export interface GatewayProcess {
  url: string;
  child: ChildProcess;
  /** Everything the process printed so far. */
  output(): string;
  /** Waits until the output holds `text` (a process restarted by its supervisor prints again). */
  waitFor(text: string | RegExp, timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

/** Where a gateway process keeps its data: a PostgreSQL database, or a PGlite folder. */
export type GatewayStorage = { databaseUrl: string } | { dataDir: string };

/** `node server/main.ts` as `npm start` runs it, ready once it says where it runs. */
export async function startGatewayProcess(
  options: GatewayStorage & {
    workers?: number;
    port?: number;
    env?: Record<string, string>;
    /** Node options before the script (its cluster workers inherit them), e.g. `--cpu-prof`. */
    nodeArgs?: string[];
    /** How long the start may take (a first start on an empty database migrates and seeds it). */
    startupMs?: number;
  },
): Promise<GatewayProcess> {
  const port = options.port ?? (await freePort());
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    WORKERS: String(options.workers ?? 1),
    WEBTOOL_LOCAL: 'true',
    LOG_LEVEL: 'warn',
    ...options.env,
  };
  if ('databaseUrl' in options) env.DATABASE_URL = options.databaseUrl;
  else {
    delete env.DATABASE_URL;
    env.DATA_DIR = options.dataDir;
  }
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), '--import', 'tsx', 'server/main.ts'], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const listeners = new Set<() => void>();
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
    for (const listener of listeners) listener();
  };
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  function waitFor(text: string | RegExp, timeoutMs = 120_000) {
    const seen = () => (typeof text === 'string' ? output.includes(text) : text.test(output));
    return new Promise<void>((resolve, reject) => {
      const check = () => {
        if (!seen()) return;
        done();
        resolve();
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`no "${String(text)}" within ${timeoutMs} ms; output:\n${output}`));
      }, timeoutMs);
      const gone = () => {
        done();
        reject(new Error(`the gateway ended (exit code ${child.exitCode}); output:\n${output}`));
      };
      const done = () => {
        clearTimeout(timer);
        listeners.delete(check);
        child.off('exit', gone);
      };
      listeners.add(check);
      child.once('exit', gone);
      check();
    });
  }

  await waitFor('Webtool running at', options.startupMs);
  return {
    url: `http://127.0.0.1:${port}`,
    child,
    output: () => output,
    waitFor,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Which gateway process answers a new connection to `url` (the pid its /healthz names). */
export async function answeringProcess(url: string): Promise<number> {
  const response = await fetch(`${url}/healthz`, { headers: { connection: 'close' } });
  return ((await response.json()) as { process: number }).process;
}

/** The latest code emailed to `email`, from the local outbox of the gateway at `url`. */
export async function latestCode(url: string, email: string): Promise<string> {
  const mails = (await (await fetch(`${url}/__dev/outbox`)).json()) as { to: string; code?: string }[];
  const codes = mails.filter((mail) => mail.to === email && mail.code);
  return codes[codes.length - 1].code!;
}

/** Signs a user in through the gateway at `signInUrl`, reading the emailed code through `mailUrl`. */
export async function signInOver(
  signInUrl: string,
  username: string,
  mailUrl = signInUrl,
  email = demoUsers.find((user) => user.username === username)?.email ?? `${username}@example.com`,
): Promise<SigningSession> {
  const cognito = cognitoClient(signInUrl);
  const tokens = await cognito.signIn(username, DEMO_PASSWORD, () => latestCode(mailUrl, email));
  return {
    region: 'eu-west-1',
    idToken: tokens.IdToken,
    accessToken: tokens.AccessToken,
    credentials: await cognito.credentials(tokens.IdToken),
  };
}

/** A signed webtool call, as the browser makes it, to the gateway at `url`. */
export async function sendOver(url: string, session: SigningSession, request: GatewayRequest) {
  const signed = await signRequest(url, request, session);
  const response = await fetch(signed.url, signed.init);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}
