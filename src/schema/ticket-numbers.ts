/** What a list of ticket numbers typed by a person (`309, 305 301`) reads as, or why it cannot be read. */
export interface TicketNumbers {
  numbers: number[];
  error?: { key: string; args?: Record<string, unknown> };
}

const NUMBER = /^[1-9]\d{0,9}$/;

/**
 * Ticket numbers separated by commas, semicolons, spaces or new lines, each once in the order typed;
 * at most `max` of them (the quick actions' 50). A token that is not a ticket number is named.
 */
export function parseTicketNumbers(text: string, max: number): TicketNumbers {
  const tokens = text
    .split(/[\s,;]+/)
    .map((token) => token.replace(/^#/, ''))
    .filter(Boolean);
  if (tokens.length === 0) return { numbers: [], error: { key: 'quick_actions.overlay.none_typed' } };
  const wrong = tokens.find((token) => !NUMBER.test(token));
  if (wrong !== undefined) {
    return { numbers: [], error: { key: 'quick_actions.overlay.invalid_number', args: { value: wrong.slice(0, 20) } } };
  }
  const numbers = [...new Set(tokens.map(Number))];
  if (numbers.length > max) return { numbers: [], error: { key: 'quick_actions.errors.too_many', args: { max } } };
  return { numbers };
}
