import { describe, expect, it } from 'vitest';
import { lastDay, logTime, searchWindow, toDateTimeInput } from '../../src/custom/logs/log-search.ts';

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

describe('webtool logs search window', () => {
  it('defaults to the last 24 hours, in local time as the date inputs show it', () => {
    const now = new Date(2026, 2, 9, 8, 5, 42);
    expect(lastDay(now)).toEqual({ from: '2026-03-08T08:05', to: '2026-03-09T08:05' });
    expect(toDateTimeInput(new Date(2026, 11, 31, 23, 59))).toBe('2026-12-31T23:59');
  });

  it('sends epoch seconds and takes in the whole last minute', () => {
    expect(searchWindow('2026-03-08T08:05', '2026-03-09T08:05')).toEqual({
      startTime: seconds(new Date(2026, 2, 8, 8, 5)),
      endTime: seconds(new Date(2026, 2, 9, 8, 5, 59)),
    });
  });

  it('keeps a 31-day range within what the gateway accepts', () => {
    const span = searchWindow('2026-01-01T00:00', '2026-02-01T00:00');
    expect(span).toEqual({
      startTime: seconds(new Date(2026, 0, 1)),
      endTime: seconds(new Date(2026, 0, 1)) + 31 * 24 * 3600,
    });
  });

  it('names what is wrong with the range', () => {
    expect(searchWindow('', '2026-03-09T08:05')).toEqual({ error: 'logs.errors.dates_required' });
    expect(searchWindow('2026-03-09T08:05', '2026-03-09T08:05')).toEqual({ error: 'logs.errors.start_after_end' });
    expect(searchWindow('2026-03-10T08:05', '2026-03-09T08:05')).toEqual({ error: 'logs.errors.start_after_end' });
    expect(searchWindow('2026-01-01T00:00', '2026-02-01T00:01')).toEqual({
      error: 'logs.errors.range_too_long',
      args: { days: 31 },
    });
  });

  it('reads ISO times and CloudWatch times, which are UTC without saying so', () => {
    expect(logTime('2026-03-09T08:05:00.000Z').toISOString()).toBe('2026-03-09T08:05:00.000Z');
    expect(logTime('2026-03-09 08:05:00.123').toISOString()).toBe('2026-03-09T08:05:00.123Z');
  });
});
