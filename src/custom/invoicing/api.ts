import type { GatewayApi } from '../../schema/ui/gateway-api.ts';
import type { FileAnswer } from '../../schema/ui/download-file.ts';

/** The invoicing endpoint (`webtool/invoicing`), as the report form names it. */
export const INVOICING_ENDPOINT = 'invoicing';
const PATH = `webtool/${INVOICING_ENDPOINT}`;

/** One invoice made, as `opname=invoice_log` answers it. */
export interface InvoiceHead {
  invoice_id: number;
  invoice_number: string;
  carrier_id: number;
  carrier_name: string | null;
  from_date: string;
  to_date: string;
  pieces: number;
  currency: string;
  net_total: number;
  vat_rate: number;
  vat_amount: number;
  total: number;
  file_name: string;
  created_at: string;
}

/** The invoicing page's gateway calls beside the report form: the invoices made and their files. */
export function invoicingApi(gateway: Pick<GatewayApi, 'call'>) {
  return {
    log: async () =>
      (await gateway.call<{ data: InvoiceHead[] }>({ method: 'GET', path: PATH, query: { opname: 'invoice_log' } }))
        .data,
    download: (invoice: Pick<InvoiceHead, 'file_name'>, kind: 'pdf' | 'csv', lang: string) =>
      gateway.call<FileAnswer>({
        method: 'GET',
        path: PATH,
        query: { opname: 'download', file_name: `${invoice.file_name}.${kind}`, lang },
      }),
  };
}
