export function findPostgres(): string | undefined;
export function startPostgres(options: { port: number; settings?: Record<string, string | number> }): {
  url: string;
  stop(): void;
};
