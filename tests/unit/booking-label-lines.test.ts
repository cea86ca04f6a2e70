import { describe, expect, it } from 'vitest';
import { bookingLabelBlocks } from '../../src/custom/print/booking-label-lines.ts';
import type { BookingLabelItem } from '../../src/schema/print-cache.ts';

const sp = { name: 'Coop Nord Gdańsk 318', sp_id: 'PL00318', sp_address: 'ul. Długa 5', zip: '80-831', city: 'Gdańsk' };

describe('booking label lines (issue 24)', () => {
  it('a delivery: the carrier sends, the recipient by name with an international phone', () => {
    const item: BookingLabelItem = {
      piece_type: 1,
      piece_id: 'NP123456789',
      endUserName: 'Anna Nowak',
      endUserPhone: '512345678',
      endUser_emailAddress: 'anna@example.test',
      phoneCountry: 'PL',
      carrier: { carrier_name: 'NordPost', emailAddress: 'invoices@nordpost.test' },
      sp,
    };
    expect(bookingLabelBlocks(item)).toEqual([
      { title: 'print.delivered_from', lines: ['NordPost', 'invoices@nordpost.test'] },
      { title: 'print.delivery_address', lines: ['Coop Nord Gdańsk 318', 'PL00318', 'ul. Długa 5', '80-831 Gdańsk'] },
      { title: 'print.receiver', lines: ['Anna Nowak', '+48 512 345 678', 'anna@example.test'] },
    ]);
  });

  it('a missing value leaves its line out: no "-" or "- -" placeholders, no e-mail twice', () => {
    const item: BookingLabelItem = {
      piece_type: 1,
      piece_id: 'NP1',
      endUserPhone: '  ',
      carrier: {
        carrier_name: 'NordPost',
        contact: 'ops@nordpost.test',
        emailAddress: 'ops@nordpost.test',
        city: 'Oslo',
      },
      sp: { name: 'Kiosk', zip: '0150' },
    };
    const blocks = bookingLabelBlocks(item);
    const lines = blocks.flatMap((block) => block.lines);
    expect(lines).not.toContain('-');
    expect(lines.some((line) => /^[\s-]*$/.test(line))).toBe(false);
    expect(blocks[0].lines).toEqual(['NordPost', 'ops@nordpost.test', 'Oslo']);
    expect(blocks[1].lines).toEqual(['Kiosk', '0150']);
    expect(blocks[2].lines).toEqual([]);
  });

  it('a drop-off: the end user sends first, the carrier receives; a phone already international stays in +CC form', () => {
    const item: BookingLabelItem = {
      piece_type: 3,
      piece_id: 'RET1',
      endUserName: 'Ola Nordmann',
      endUserPhone: '0047 41234567',
      phoneCountry: 'PL',
      carrier: { carrier_name: 'NordPost', contact: 'Returns desk', phone: '+4520123456' },
      sp,
    };
    const blocks = bookingLabelBlocks(item);
    expect(blocks.map((block) => block.title)).toEqual(['print.sender', 'print.delivery_address', 'print.receiver']);
    expect(blocks[0].lines).toEqual(['Ola Nordmann', '+47 41 23 45 67']);
    expect(blocks[2].lines).toEqual(['NordPost', 'Returns desk', '+45 20 12 34 56']);
  });

  it('a phone the library cannot read is printed as entered', () => {
    const item: BookingLabelItem = { piece_type: 1, piece_id: 'X1', endUserPhone: '12-ab', phoneCountry: 'PL' };
    expect(bookingLabelBlocks(item)[2].lines).toEqual(['12-ab']);
  });
});
