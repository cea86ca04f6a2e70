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
  [...readFileSync(file, 'utf8').matchAll(/keyedError\(\s*\d{3},\s*'([^']+)'/g)].map((match) => ({
    file: path.relative(gatewayDir, file),
    key: match[1],
  })),
);

describe('gateway messages', () => {
  it('every key the gateway throws has its text in both languages', () => {
    expect(keyed.length).toBeGreaterThan(5);
    const missing = keyed.filter(
      ({ key }) => typeof lookup(en, key) !== 'string' || typeof lookup(fr, key) !== 'string',
    );
    expect(missing).toEqual([]);
  });

  it('the core list query refuses by key, never by English text alone', () => {
    const core = ['list-query.ts', 'handlers/get.ts', 'handlers/handler-context.ts'];
    for (const file of core) {
      const text = readFileSync(path.join(gatewayDir, file), 'utf8');
      const bare = [...text.matchAll(/badRequest\(`[^`]*`\)|badRequest\('[^']*'\)|new HttpError\(\d+, `[^`]*`\)/g)];
      expect(bare.map((match) => `${file}: ${match[0]}`)).toEqual([]);
    }
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
