import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isDateDmy, isTime } from '../../../src/schema/validators/date-time.ts';
import { valueErrors } from './support.ts';

const twoDigits = (value: number) => String(value).padStart(2, '0');

describe('time format', () => {
  it('takes hh:mm or hh:mm:ss with hours 00 to 23', () => {
    for (const value of ['00:00', '23:59', '23:59:59', '07:05:00']) expect(isTime(value), value).toBe(true);
    for (const value of ['24:00', '23:60', '12:30:60', '9:30', '12', '12:30:', '12:30 ']) {
      expect(isTime(value), value).toBe(false);
    }
    expect(valueErrors({ type: 'string', format: 'time' }, '24:00')).toEqual({ value: { message: 'validation.time' } });
  });

  it('accepts every time of day and no hour from 24', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }), (h, m) =>
        isTime(`${twoDigits(h)}:${twoDigits(m)}`),
      ),
    );
    fc.assert(
      fc.property(
        fc.integer({ min: 24, max: 99 }),
        fc.integer({ min: 0, max: 59 }),
        (h, m) => !isTime(`${h}:${twoDigits(m)}`),
      ),
    );
  });
});

describe('date-dmy format', () => {
  it('takes real calendar dates only', () => {
    for (const value of ['29-02-2024', '29-02-2000', '31-12-2024', '01-01-0001'])
      expect(isDateDmy(value), value).toBe(true);
    for (const value of [
      '31-02-2024',
      '29-02-2023',
      '29-02-1900',
      '31-04-2024',
      '00-01-2024',
      '01-13-2024',
      '1-2-2024',
      '2024-02-01',
    ]) {
      expect(isDateDmy(value), value).toBe(false);
    }
    expect(valueErrors({ type: 'string', format: 'date-dmy' }, '31-02-2024')).toEqual({
      value: { message: 'validation.date' },
    });
  });

  it('accepts every real date and no day 32', () => {
    const dates = fc.date({
      min: new Date('1000-01-01T00:00:00Z'),
      max: new Date('9999-12-31T00:00:00Z'),
      noInvalidDate: true,
    });
    fc.assert(
      fc.property(dates, (date) =>
        isDateDmy(`${twoDigits(date.getUTCDate())}-${twoDigits(date.getUTCMonth() + 1)}-${date.getUTCFullYear()}`),
      ),
    );
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 1000, max: 9999 }),
        (month, year) => !isDateDmy(`32-${twoDigits(month)}-${year}`),
      ),
    );
  });
});
