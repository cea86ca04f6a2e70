import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import en from '../../locales/en-US.json';
import fr from '../../locales/fr-FR.json';
import { englishMessage, keyedError } from '../../server/gateway/http-error.ts';
import { errorMessage } from '../../src/dataProvider/http-errors.ts';

/**
 * Every gateway message reaches the user in the user's language (issue 33.2): a refusal carries a locale key,
 * which both locales hold. The scan reads the gateway's sources for the keys it throws.
 */

type Messages = { [key: string]: string | Messages };
const lookup = (messages: Messages, key: string) =>
  key
    .split('.')
    .reduce<string | Messages | undefined>((at, part) => (typeof at === 'object' ? at[part] : undefined), messages);

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    return statSync(file).isDirectory() ? sources(file) : file.endsWith('.ts') ? [file] : [];
  });
}

const gatewayDir = path.resolve(__dirname, '../../server/gateway');
const keyed = sources(gatewayDir).flatMap((file) =>
  [
    ...readFileSync(file, 'utf8').matchAll(
      /(?:keyedError\(\s*\d{3},|badRequest\(|notFound\(|forbidden\(|message_key:)\s*'([^']+)'/g,
    ),
  ].map((match) => ({
    file: path.relative(gatewayDir, file),
    key: match[1],
  })),
);

/** Each `new HttpError(...)` call of the gateway, its arguments on one line. */
const constructed = sources(gatewayDir)
  .filter((file) => !file.endsWith('http-error.ts'))
  .flatMap((file) => {
    const text = readFileSync(file, 'utf8');
    return [...text.matchAll(/new HttpError\(/g)].map((match) => {
      let depth = 1;
      let end = match.index + match[0].length;
      while (depth && end < text.length) {
        depth += text[end] === '(' ? 1 : text[end] === ')' ? -1 : 0;
        end += 1;
      }
      return { file: path.relative(gatewayDir, file), call: text.slice(match.index, end).replace(/\s+/g, ' ') };
    });
  });

describe('gateway messages', () => {
  it('every key the gateway throws has its text in both languages', () => {
    expect(keyed.length).toBeGreaterThan(5);
    const missing = keyed.filter(
      ({ key }) => typeof lookup(en, key) !== 'string' || typeof lookup(fr, key) !== 'string',
    );
    expect(missing).toEqual([]);
  });

  it('no refusal is English text alone: badRequest and notFound take keys, new HttpError carries one', () => {
    expect(keyed.length).toBeGreaterThan(100);
    // A refused record (422 `Save failed`) names its fields' errors by key; the app shows those.
    const unkeyed = constructed.filter(
      ({ call }) =>
        !call.includes('message_key') &&
        !/^new HttpError\(422, SAVE_FAILED, \{ (errors|row_errors)\b/.test(call) &&
        // a keyed refusal passed on with its own details, the key among them
        !/\.details\b/.test(call),
    );
    expect(unkeyed).toEqual([]);
  });

  it('a keyed refusal carries its key and arguments, and the app shows it in French', () => {
    const error = keyedError(400, 'gateway.unknown_filter', { filter: 'partner_id' });
    expect(error.toBody()).toEqual({
      success: false,
      message: 'Unknown filter: partner_id',
      message_key: 'gateway.unknown_filter',
      args: { filter: 'partner_id' },
    });
    const shown = errorMessage(400, error.toBody() as never, { context: 'x' });
    expect(shown).toEqual({ message: 'gateway.unknown_filter', args: { filter: 'partner_id' } });
    expect(lookup(fr, shown.message)).toBe('Filtre inconnu : %{filter}');
    expect(() => englishMessage('gateway.no_such_message')).toThrow(/no English text/);
  });
});
