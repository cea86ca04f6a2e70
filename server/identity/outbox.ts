import type { Db } from '../db/adapter.ts';

export interface Email {
  to: string;
  subject: string;
  body: string;
  /** The code or temporary password the email carries, so tests need not parse the body. */
  code?: string;
}

export interface OutboxEntry {
  to: string;
  subject: string;
  body: string;
  code: string | null;
  sentAt: string;
}

/**
 * The stand-in's mail: every email is a log line; in local mode it is also kept in the outbox
 * table, which only exists to be read by tests and developers.
 */
export function createOutbox(db: Db, options: { local: boolean; now: () => number; log: (line: string) => void }) {
  return {
    async send(email: Email): Promise<void> {
      options.log(`email to ${email.to}: ${email.subject}\n${email.body}`);
      if (!options.local) return;
      await db.query('INSERT INTO outbox ("to", subject, body, code, sent_at) VALUES ($1, $2, $3, $4, $5)', [
        email.to,
        email.subject,
        email.body,
        email.code ?? null,
        new Date(options.now()),
      ]);
    },

    /** Oldest first, so the newest email is last. */
    async read(): Promise<OutboxEntry[]> {
      const { rows } = await db.query<{
        to: string;
        subject: string;
        body: string;
        code: string | null;
        sent_at: Date;
      }>('SELECT "to", subject, body, code, sent_at FROM outbox ORDER BY id');
      return rows.map((row) => ({
        to: row.to,
        subject: row.subject,
        body: row.body,
        code: row.code,
        sentAt: new Date(row.sent_at).toISOString(),
      }));
    },
  };
}

export type Outbox = ReturnType<typeof createOutbox>;
