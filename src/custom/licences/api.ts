import type { GatewayApi } from '../../schema/ui/gateway-api.ts';
import type { FileAnswer } from '../../schema/ui/download-file.ts';

/** The licence statement's endpoint (`webtool/hardware/license`), as the report form names it. */
export const LICENCE_ENDPOINT = 'hardware/license';
const PATH = `webtool/${LICENCE_ENDPOINT}`;

/** The licence page's gateway calls beside the report form: a statement's PDF. */
export function licenceApi(gateway: Pick<GatewayApi, 'call'>) {
  return {
    pdf: (reportId: string | undefined, lang: string) =>
      gateway.call<FileAnswer>({
        method: 'GET',
        path: PATH,
        query: { opname: 'export_pdf', report_id: reportId, lang },
      }),
  };
}
