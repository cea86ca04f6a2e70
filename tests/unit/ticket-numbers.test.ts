import { describe, expect, it } from 'vitest';
import { parseTicketNumbers } from '../../src/schema/ticket-numbers.ts';

describe('ticket numbers typed in the quick-action overlay', () => {
  it('reads numbers separated by commas, spaces, semicolons and new lines, each once, with or without #', () => {
    expect(parseTicketNumbers(' 309, 305 ;301\n#300 305 ', 50)).toEqual({ numbers: [309, 305, 301, 300] });
  });

  it('names what is not a ticket number, and asks for one when nothing is typed', () => {
    expect(parseTicketNumbers('309, 3o5', 50).error).toEqual({
      key: 'quick_actions.overlay.invalid_number',
      args: { value: '3o5' },
    });
    expect(parseTicketNumbers('0', 50).error?.key).toBe('quick_actions.overlay.invalid_number');
    expect(parseTicketNumbers('1; DROP TABLE records --', 50).error?.args).toEqual({ value: 'DROP' });
    expect(parseTicketNumbers('  , ', 50).error).toEqual({ key: 'quick_actions.overlay.none_typed' });
  });

  it('refuses more than the quick actions take (50)', () => {
    const fifty = Array.from({ length: 50 }, (_, index) => index + 1).join(' ');
    expect(parseTicketNumbers(fifty, 50).numbers).toHaveLength(50);
    expect(parseTicketNumbers(`${fifty} 51`, 50)).toEqual({
      numbers: [],
      error: { key: 'quick_actions.errors.too_many', args: { max: 50 } },
    });
  });
});
