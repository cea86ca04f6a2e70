/** The gateway's success bodies of record calls, shared by the gateway and the app. */

export type WebtoolRecord = Record<string, unknown>;

/** `GET webtool/<endpoint>`: one page of records and the exact total of the filtered list. */
export interface ListResponse<T = WebtoolRecord> {
  success: true;
  data: T[];
  total: number;
}

/** A create (201), an update or an upload: the record as stored, with its new `version`. */
export interface RecordResponse<T = WebtoolRecord> {
  success: true;
  data: T & { version: number };
}

/** `POST webtool/<endpoint>` `{ opname: 'bulk_import' }`: every row was written. */
export interface ImportResponse {
  success: true;
  imported: number;
}
