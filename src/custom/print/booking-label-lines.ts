import type { BookingLabelItem } from '../../schema/print-cache.ts';
import { internationalPhone } from '../../schema/validators/phone.ts';
import { PieceType } from '../../types/generated/codes.ts';

/** One block of a booking label: its title's translation key and the lines it prints. */
export interface LabelBlock {
  title: 'print.delivered_from' | 'print.delivery_address' | 'print.receiver' | 'print.sender';
  lines: string[];
}

const present = (value: unknown): string | undefined =>
  value === undefined || value === null || String(value).trim() === '' ? undefined : String(value).trim();

/** The lines that have a value, each once: a missing value leaves its line out (no "-" placeholder). */
function linesOf(values: unknown[]): string[] {
  const lines = values.map(present).filter((line): line is string => line !== undefined);
  return lines.filter((line, index) => lines.indexOf(line) === index);
}

/** "1050 København", or whichever of the two exists. */
const zipCity = (zip: unknown, city: unknown) => linesOf([zip, city]).join(' ');

const phoneLine = (phone: unknown, country: string | undefined) => {
  const entered = present(phone);
  return entered && internationalPhone(entered, country);
};

/**
 * The blocks of one booking label (spec 01 §2.4, issue 24): the sender and the receiver with their
 * names, address, phone in international form and e-mail, and the delivery address between them.
 * Type 1: the carrier sends to the end user. Type 3: the end user sends back to the carrier.
 */
export function bookingLabelBlocks(item: BookingLabelItem): LabelBlock[] {
  const carrier = item.carrier ?? {};
  const sp = item.sp ?? {};
  const carrierLines = linesOf([
    carrier.carrier_name,
    carrier.contact,
    carrier.carrier_address,
    zipCity(carrier.zip, carrier.city),
    phoneLine(carrier.phone, item.phoneCountry),
    carrier.emailAddress,
  ]);
  const endUserLines = linesOf([
    item.endUserName,
    phoneLine(item.endUserPhone, item.phoneCountry),
    item.endUser_emailAddress,
  ]);
  const delivery: LabelBlock = {
    title: 'print.delivery_address',
    lines: linesOf([sp.name, sp.sp_id, sp.sp_address, zipCity(sp.zip, sp.city)]),
  };
  return item.piece_type === PieceType.EndUserDropOff
    ? [{ title: 'print.sender', lines: endUserLines }, delivery, { title: 'print.receiver', lines: carrierLines }]
    : [
        { title: 'print.delivered_from', lines: carrierLines },
        delivery,
        { title: 'print.receiver', lines: endUserLines },
      ];
}
