export interface PostgresServer {
  /** Superuser URL of the server's `postgres` database, where tests may create databases. */
  url: string;
  /** The same through the server's Unix socket (in `folder`), for a client on this machine. */
  socketUrl: string;
  port: number;
  folder: string;
  logFile: string;
  start(): void;
  stop(mode?: 'smart' | 'fast' | 'immediate'): void;
  remove(): void;
}
export function postgresBinDir(root?: string): string | undefined;
export function findPostgres(options?: { root?: string; install?: (name: string) => boolean }): string;
export function freePort(from?: number): Promise<number>;
export function startPostgres(options?: { port?: number; binDir?: string }): Promise<PostgresServer>;
export function removeOnExit(server: PostgresServer): void;
