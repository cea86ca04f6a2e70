/** Print pages read data another screen cached for them (spec 01 §2.4, §2.5, §4). */
export const PRINT_CACHE_MS = 30 * 60 * 1000;

export interface BookingLabelItem {
  piece_type: 1 | 3;
  piece_id: string;
  endUser_reference?: string;
  /** The end user's name (issue 24: the recipient of a delivery, the sender of a drop-off). */
  endUserName?: string;
  endUserPhone?: string;
  endUser_emailAddress?: string;
  /** The country a national phone number is read in (ISO code), for the international form. */
  phoneCountry?: string;
  carrier?: {
    carrier_name?: string;
    carrier_address?: string;
    zip?: string;
    city?: string;
    contact?: string;
    phone?: string;
    emailAddress?: string;
  };
  sp?: { name?: string; sp_id?: string; sp_address?: string; zip?: string; city?: string };
}

export interface LocationExport {
  location_id: number | string;
  basic: {
    name?: string;
    address_1?: string;
    location_owner_id?: number;
    location_owner_name?: string;
    municipality_id?: number;
    municipality_name?: string;
    location_type_id?: number;
    location_type_name?: string;
    is_rural?: boolean | number;
  };
  proposals: {
    proposal_id: number | string;
    temp_id?: string;
    name?: string;
    address?: string;
    location_description?: string;
    hardware_units?: number;
    hardware_type?: string;
    hardware_model_id?: number;
    hardware_model_name?: string;
    position?: number;
    foundation_id?: { column_name?: string }[];
    latitude?: number;
    longitude?: number;
    imageFiles?: { url: string }[];
  }[];
  contacts: { name?: string; proposal_id?: { temp_id?: string }[] }[];
}

interface Cached<T> {
  savedAt: number;
  data: T;
}

export const printKeys = {
  booking: (id?: string) => `wt.print.booking${id ? `.${id}` : ''}`,
  location: (id: string) => `wt.print.location.${id}`,
};

export function cachePrintData<T>(key: string, data: T, now = Date.now()) {
  localStorage.setItem(key, JSON.stringify({ savedAt: now, data } satisfies Cached<T>));
}

/** The cached data, or undefined when there is none, it is unreadable or older than 30 minutes. */
export function readPrintData<T>(key: string, now = Date.now()): T | undefined {
  try {
    const cached = JSON.parse(localStorage.getItem(key) ?? 'null') as Cached<T> | null;
    if (!cached || typeof cached.savedAt !== 'number' || now - cached.savedAt > PRINT_CACHE_MS) return undefined;
    return cached.data;
  } catch {
    return undefined;
  }
}

/** Any missing value prints as '-'. */
export function orDash(value: unknown): string {
  return value === undefined || value === null || String(value).trim() === '' ? '-' : String(value);
}
