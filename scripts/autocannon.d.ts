/** The part of autocannon 9 (untyped package) that scripts/load.ts uses. */
declare module 'autocannon' {
  export interface Request {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
    setupRequest?: (request: Request, context: Record<string, unknown>) => Request;
    onResponse?: (status: number, body: string, context: Record<string, unknown>) => void;
  }
  export interface Client {
    on(event: string, listener: (...args: unknown[]) => void): void;
  }
  export interface Options {
    url: string;
    connections: number;
    duration: number;
    timeout?: number;
    initialContext?: Record<string, unknown>;
    requests?: Request[];
    setupClient?: (client: Client) => void;
  }
  export interface Result {
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    requests: { total: number; average: number };
    latency: { p50: number; p99: number; average: number };
    '2xx': number;
    '4xx': number;
    '5xx': number;
  }
  export interface Instance {
    on(
      event: 'response',
      listener: (client: Client, status: number, bytes: number, milliseconds: number) => void,
    ): void;
    /** A request that failed on its socket or timed out (the error's message is then 'request timed out'). */
    on(event: 'reqError', listener: (error: Error) => void): void;
  }
  function autocannon(options: Options, done: (error: Error | null, result: Result) => void): Instance;
  export default autocannon;
}
