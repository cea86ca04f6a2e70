import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Issue 25.2: status, type, event and verification codes are compared by name (`TicketStatus.Open`, from
 * `x-enum-names` through `npm run gen`), never as bare numbers. HTTP statuses (100 to 599) are numbers.
 */
const root = path.resolve(__dirname, '../..');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return name === 'generated' ? [] : sources(file);
    return /\.tsx?$/.test(name) ? [file] : [];
  });
}

const CODE_NAME = /\b\w*(?:status|type|event|verification)\w*\s*[!=]==\s*(\d+)\b/gi;
const isHttpStatus = (name: string, code: number) => /status$/i.test(name) && code >= 100 && code < 600;

describe('named codes', () => {
  it('no status, type, event or verification code is compared as a bare number', () => {
    const bare = ['src', 'server'].flatMap((dir) =>
      sources(path.join(root, dir)).flatMap((file) =>
        [...readFileSync(file, 'utf8').matchAll(CODE_NAME)]
          .filter((match) => !isHttpStatus(match[0].split(/\s/)[0], Number(match[1])))
          .map((match) => `${path.relative(root, file)}: ${match[0]}`),
      ),
    );
    expect(bare).toEqual([]);
  });

  it('catches what it should', () => {
    const found = (text: string) =>
      [...text.matchAll(CODE_NAME)].filter((match) => !isHttpStatus(match[0].split(/\s/)[0], Number(match[1])));
    expect(found('if (ticket.status === 3) {')).toHaveLength(1);
    expect(found('piece.piece_type !== 1')).toHaveLength(1);
    expect(found('response.status === 404')).toHaveLength(0);
    expect(found('ticket.status === TicketStatus.OnHold')).toHaveLength(0);
  });
});
